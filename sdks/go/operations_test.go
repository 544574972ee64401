package smm

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The daemon's own OpenAPI document is the list of what the SDK must offer.
func TestEveryOperationOfTheOpenAPIDocumentHasAMethod(t *testing.T) {
	live := LiveEnv(t)
	ctx := context.Background()
	doc, err := live.Client(t).OpenAPI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Protocol    string `json:"x-smm-protocol"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil {
		t.Fatal(err)
	}
	inDocument := map[string]bool{}
	sends := newRecorder(t)
	for path, methods := range parsed.Paths {
		for method, operation := range methods {
			// A protocol's own operations (tus uploads) are left to that protocol's clients.
			if operation.OperationID == "" || operation.Protocol != "" {
				continue
			}
			inDocument[operation.OperationID] = true
			if operations[operation.OperationID] == nil {
				t.Errorf("%s %s (operationId %s) has no method in the Go SDK: add one, and its line in operations.go", method, path, operation.OperationID)
				continue
			}
			// The method must send the operation's method to its path.
			want := strings.ToUpper(method) + " " + placeholder.ReplaceAllString(path, "x")
			if got := sends(operations[operation.OperationID]); got != want {
				t.Errorf("%s: the Go SDK's method sends %q, the document says %q", operation.OperationID, got, want)
			}
		}
	}
	if len(inDocument) < 20 {
		t.Fatalf("the document lists only %d operations: is it the API's?", len(inDocument))
	}
	var stale []string
	for id := range operations {
		if !inDocument[id] {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("operations.go maps %v, which the API no longer has", stale)
	}
}

var placeholder = regexp.MustCompile(`\{[^}]+\}`)

// newRecorder returns a function that calls a method of operations with "x" for every string
// argument and zero values for the rest, against a loopback server, and says what it sent.
func newRecorder(t *testing.T) func(method any) string {
	var last string
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = r.Method + " " + r.URL.Path
		io.WriteString(w, `{"data":[],"has_more":false,"next_cursor":null}`)
	}))
	t.Cleanup(server.Close)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(server.URL, "smm_key", WithCAFile(caFile), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	receivers := map[reflect.Type]reflect.Value{}
	for _, r := range []any{c, c.Posts, c.Platforms, c.Accounts, c.Webhooks, c.APIKeys, c.AI, c.Analytics, c.Feeds, c.Workspaces, c.Media} {
		receivers[reflect.TypeOf(r)] = reflect.ValueOf(r)
	}
	return func(method any) string {
		last = ""
		fn := reflect.ValueOf(method)
		args := []reflect.Value{receivers[fn.Type().In(0)], reflect.ValueOf(ctx)}
		for i := 2; i < fn.Type().NumIn(); i++ {
			arg := reflect.New(fn.Type().In(i)).Elem()
			if arg.Kind() == reflect.String {
				arg.SetString("x")
			}
			args = append(args, arg)
		}
		// A method's optional parameters (Posts.Cancel's) are a variadic slice: passed as one, empty.
		call := fn.Call
		if fn.Type().IsVariadic() {
			call = fn.CallSlice
		}
		out := call(args)
		// A list answers a pager, which sends its first request on Next.
		if next := out[0].MethodByName("Next"); next.IsValid() {
			next.Call([]reflect.Value{reflect.ValueOf(ctx)})
		}
		return last
	}
}

// The README's method table names the method of every operation (operations, which the daemon's
// OpenAPI document checks): a Client method as `client.<Method>`, a service's in the row of
// `client.<Service>`.
func TestTheReadmeMethodTableNamesEveryMethodOfAnOperation(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "|") {
			rows = append(rows, line)
		}
	}
	receiver := regexp.MustCompile(`\(\*(\w+)\)\.(\w+)(-fm)?$`)
	spans := regexp.MustCompile("`([^`]*)`")
	for id, method := range operations {
		name := runtime.FuncForPC(reflect.ValueOf(method).Pointer()).Name()
		parts := receiver.FindStringSubmatch(name)
		if parts == nil {
			t.Fatalf("%s: cannot read the method of %s", id, name)
		}
		service, word := strings.TrimSuffix(parts[1], "Service"), regexp.MustCompile(`\b`+parts[2]+`\b`)
		named := false
		for _, row := range rows {
			for _, span := range spans.FindAllStringSubmatch(row, -1) {
				if service == "Client" && strings.Contains(span[1], "client."+parts[2]) && word.MatchString(span[1]) ||
					service != "Client" && strings.Contains(strings.Split(row, "|")[1], "client."+service) && word.MatchString(span[1]) {
					named = true
				}
			}
		}
		if !named {
			t.Errorf("%s (%s.%s): the README's method table leaves it out", id, service, parts[2])
		}
	}
}
