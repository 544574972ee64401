// Retries announces an order with the caller's own Idempotency-Key: however often the program
// is run for one order (or the client retries), the daemon makes one post.
//
//	go run . acc_… 42 2026-12-01T09:00:00Z
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
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run . acc_… ORDER-ID 2026-12-01T09:00:00Z")
		os.Exit(2)
	}
	account, order := os.Args[1], os.Args[2]
	at, err := time.Parse(time.RFC3339, os.Args[3])
	if err != nil {
		log.Fatal(err)
	}
	// Up to 5 retries of 429s, 5xx answers and connection failures, with backoff.
	client, err := smm.NewClient("", "", smm.WithMaxRetries(5), smm.WithTimeout(10*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	post, err := client.Posts.Create(context.Background(), smm.PostCreateParams{
		AccountID:   account,
		Content:     "Order " + order + " has shipped",
		Platforms:   []string{"feed"},
		ScheduledAt: at,
		// One post per order: a repeat with this key and the same request answers the first
		// post (a different request with it is refused, 422 idempotency_key_reused).
		IdempotencyKey: "announce-order-" + order,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(post.ID)
}
