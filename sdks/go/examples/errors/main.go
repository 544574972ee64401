// Errors shows the typed errors: a stale ETag, invalid fields and the rate limit. go run . acc_…
package main

import (
	"context"
	"errors"
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
	ctx := context.Background()
	client, err := smm.NewClient("", "")
	if err != nil {
		log.Fatal(err)
	}
	post, err := client.Posts.Create(ctx, smm.PostCreateParams{
		AccountID: os.Args[1], Content: "Draft", Platforms: []string{"feed"}, ScheduledAt: time.Now().Add(time.Hour),
	})
	if err != nil {
		log.Fatal(err)
	}
	// Someone else edits the post after we read it...
	other := "Their edit"
	if _, err := client.Posts.Update(ctx, post.ID, smm.PostUpdateParams{Content: &other}); err != nil {
		log.Fatal(err)
	}
	// ...so our update, made against the version we read, is refused instead of overwriting it.
	ours := "Our edit"
	_, err = client.Posts.Update(ctx, post.ID, smm.PostUpdateParams{Content: &ours, IfMatch: post.ETag})
	report(err)

	_, err = client.Posts.Create(ctx, smm.PostCreateParams{AccountID: os.Args[1], Content: "No platform", Platforms: []string{}})
	report(err)
}

func report(err error) {
	var limited *smm.RateLimitError
	var apiErr *smm.APIError
	switch {
	case errors.As(err, &limited):
		fmt.Println("rate limited: try again in", limited.RetryAfter)
	case errors.As(err, &apiErr):
		fmt.Println(apiErr.Status, apiErr.Code, apiErr.Problem.Detail)
		for _, field := range apiErr.Problem.Errors {
			fmt.Println("  ", field.Pointer, field.Detail)
		}
	case err != nil:
		log.Fatal(err) // not an answer of the API: no connection, an untrusted certificate…
	}
}
