// Quickstart schedules a post an hour from now on an account's feed: go run . acc_…
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"smm.local/smm"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run . acc_… (an account with the feed platform connected)")
		os.Exit(2)
	}
	client, err := smm.NewClient("", "") // SMM_URL, SMM_API_KEY and SMM_CA_FILE from the environment
	if err != nil {
		log.Fatal(err)
	}
	post, err := client.Posts.Create(context.Background(), smm.PostCreateParams{
		AccountID: os.Args[1], Content: "Hello from Go", Platforms: []string{"feed"}, ScheduledAt: time.Now().Add(time.Hour),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(post.ID, post.Status)
}
