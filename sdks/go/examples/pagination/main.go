// Pagination lists every scheduled post of an account, two per request: go run . acc_…
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
		fmt.Fprintln(os.Stderr, "usage: go run . acc_…")
		os.Exit(2)
	}
	ctx := context.Background()
	client, err := smm.NewClient("", "")
	if err != nil {
		log.Fatal(err)
	}
	posts := client.Posts.List(ctx, smm.PostListParams{AccountID: os.Args[1], Status: "scheduled", Limit: 2})
	for posts.Next(ctx) {
		post := posts.Current()
		fmt.Println(post.ID, post.ScheduledAt.Format(time.RFC3339))
	}
	if err := posts.Err(); err != nil {
		log.Fatal(err)
	}
}
