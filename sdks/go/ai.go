package smm

import "context"

// AIGeneration is a set of drafts; they are neither published nor stored.
type AIGeneration struct {
	ID string `json:"id"`
	// Provider is builtin (the offline helper) or openai (the configured model server).
	Provider string      `json:"provider"`
	Model    string      `json:"model"`
	Variants []AIVariant `json:"variants"`
	Usage    AIUsage     `json:"usage"`
	// Notes say what the provider could not do as asked.
	Notes []string `json:"notes"`
}

// AIVariant is one draft.
type AIVariant struct {
	Content string `json:"content"`
	// Platform is nil for the platform-neutral set.
	Platform *string `json:"platform"`
	// Characters is the length counted the platform's way.
	Characters int `json:"characters"`
}

// AIUsage is what the model server reported; nil where it reported nothing.
type AIUsage struct {
	Requests         int  `json:"requests"`
	PromptTokens     *int `json:"prompt_tokens"`
	CompletionTokens *int `json:"completion_tokens"`
	TotalTokens      *int `json:"total_tokens"`
}

// AIGenerateParams asks for drafts.
type AIGenerateParams struct {
	// Prompt says what the posts should be about (required, at most 4,000 characters).
	Prompt string
	// Platforms to draft for, each fitting its rules; empty: one platform-neutral set.
	Platforms []string
	// Tone is neutral (default), friendly, professional, witty or enthusiastic.
	Tone string
	// Variants is the number of drafts per platform, 1..5 (0: 1).
	Variants int
	// Language is a BCP 47 tag (default: the prompt's language).
	Language       string
	Hashtags       bool
	IdempotencyKey string
}

// AIService is /v1/ai.
type AIService struct{ c *Client }

// Generate drafts posts that fit each platform (POST /v1/ai/generate).
func (s *AIService) Generate(ctx context.Context, p AIGenerateParams) (*AIGeneration, error) {
	body := map[string]any{"prompt": p.Prompt}
	if p.Platforms != nil {
		body["platforms"] = p.Platforms
	}
	if p.Tone != "" {
		body["tone"] = p.Tone
	}
	if p.Variants != 0 {
		body["variants"] = p.Variants
	}
	if p.Language != "" {
		body["language"] = p.Language
	}
	if p.Hashtags {
		body["hashtags"] = true
	}
	return call[AIGeneration](ctx, s.c, request{method: "POST", path: "/v1/ai/generate", body: body, idempotencyKey: p.IdempotencyKey})
}
