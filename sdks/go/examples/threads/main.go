// Threads schedules a thread with a first comment, and the feed's own version: go run . acc_…
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
	client, err := smm.NewClient("", "")
	if err != nil {
		log.Fatal(err)
	}
	post, err := client.Posts.Create(context.Background(), smm.PostCreateParams{
		AccountID: os.Args[1], Platforms: []string{"feed"}, ScheduledAt: time.Now().Add(time.Hour),
		Content: "We shipped threads 🧵",
		Thread: []smm.ThreadPart{
			{Content: "Each part goes out after the post, in order."},
			{Content: "Up to 24 of them, with media.", MediaURLs: []string{"https://example.com/parts.png"}},
		},
		// A reply or comment under the post, where the platform has them.
		FirstComment: "Changelog: https://example.com/changelog",
		// The feed's own version: its own text, and no first comment (it has neither replies nor comments).
		Overrides: map[string]smm.PlatformOverride{
			"feed": {Content: "Threads are here: read all about it below.", ClearFirstComment: true},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(post.ID, len(post.Thread), post.Overrides["feed"].Content)
}
