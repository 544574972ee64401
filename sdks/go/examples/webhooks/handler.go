// Package webhooks is a receiver of smm's webhooks: mount Handler on the URL you registered.
package webhooks

import (
	"io"
	"log"
	"net/http"

	"smm.local/smm"
)

// Handler verifies each delivery with the endpoint's secret and hands the event to handle.
func Handler(secret string, handle func(*smm.WebhookEvent)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)) // the raw body: verify before decoding
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := smm.VerifyWebhook(body, r.Header, secret)
		if err != nil { // a *smm.WebhookVerificationError: no valid signature, or too old
			log.Print(err)
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}
		handle(event) // event.ID is the same on every retry of one event: use it to drop duplicates
		w.WriteHeader(http.StatusNoContent)
	})
}
