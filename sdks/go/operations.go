package smm

// operations maps every operationId of the API's OpenAPI document to the method that calls it.
// A test fails, naming the operation, when the daemon's document has one missing here: adding an
// operation is one method and one line.
var operations = map[string]any{
	"getHealth":             (*Client).Health,
	"getOpenApi":            (*Client).OpenAPI,
	"getMe":                 (*Client).Me,
	"listApiKeys":           (*APIKeysService).List,
	"createApiKey":          (*APIKeysService).Create,
	"revokeApiKey":          (*APIKeysService).Revoke,
	"generateContent":       (*AIService).Generate,
	"listWebhooks":          (*WebhooksService).List,
	"createWebhook":         (*WebhooksService).Create,
	"getWebhook":            (*WebhooksService).Get,
	"updateWebhook":         (*WebhooksService).Update,
	"deleteWebhook":         (*WebhooksService).Delete,
	"testWebhook":           (*WebhooksService).Test,
	"rotateWebhookSecret":   (*WebhooksService).RotateSecret,
	"listWebhookDeliveries": (*WebhooksService).ListDeliveries,
	"listAccounts":          (*AccountsService).List,
	"createAccount":         (*AccountsService).Create,
	"getAccount":            (*AccountsService).Get,
	"connectAccount":        (*AccountsService).Connect,
	"disconnectAccount":     (*AccountsService).Disconnect,
	"listPosts":             (*PostsService).List,
	"createPost":            (*PostsService).Create,
	"getPost":               (*PostsService).Get,
	"updatePost":            (*PostsService).Update,
	"cancelPost":            (*PostsService).Cancel,
	"retryPost":             (*PostsService).Retry,
	"getRssFeed":            (*FeedsService).RSS,
	"getAtomFeed":           (*FeedsService).Atom,
	"getJsonFeed":           (*FeedsService).JSON,
	"getAnalytics":          (*AnalyticsService).Get,
}
