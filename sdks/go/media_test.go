package smm_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"smm.local/smm"
)

// pngOf is a grey PNG of width × height, encoded by the standard library.
func pngOf(t *testing.T, width, height int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, width, height))
	// Noise, so that the file stays about as large as its pixels: many reads to send it.
	rand.New(rand.NewSource(1)).Read(img.Pix)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMediaUploadFileStreamsItAndTellsProgress(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	data := pngOf(t, 640, 480)
	path := filepath.Join(t.TempDir(), "grey.png")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var told [][2]int64
	media, err := c.Media.UploadFile(ctx, path, smm.MediaUploadParams{ContentType: "image/png", AltText: "Grey noise", OnProgress: func(sent, total int64) { told = append(told, [2]int64{sent, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if media.ContentType != "image/png" || *media.Width != 640 || *media.Height != 480 || media.Bytes != int64(len(data)) || *media.AltText != "Grey noise" || media.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("UploadFile: %+v", media)
	}
	if len(told) < 2 || told[len(told)-1] != [2]int64{int64(len(data)), int64(len(data))} {
		t.Fatalf("progress: %v", told)
	}
	served, err := c.Media.File(ctx, filepath.Base(media.URL))
	if err != nil || !bytes.Equal(served, data) {
		t.Fatalf("File: %d bytes, %v", len(served), err)
	}
	if _, err := c.Media.UploadFile(ctx, filepath.Join(t.TempDir(), "missing.png"), smm.MediaUploadParams{ContentType: "image/png"}); !os.IsNotExist(unwrapAll(err)) {
		t.Fatalf("a missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		next, ok := err.(interface{ Unwrap() error })
		if !ok || next.Unwrap() == nil {
			return err
		}
		err = next.Unwrap()
	}
}

func TestMediaBytesGetListUpdateDeleteAndPosts(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	if _, err := c.Media.Upload(ctx, pngOf(t, 8, 8), smm.MediaUploadParams{ContentType: "image/jpeg"}); problemCode(err, 422) != "media_type_mismatch" {
		t.Fatalf("a PNG sent as JPEG: %v", err)
	}
	media, err := c.Media.Upload(ctx, pngOf(t, 300, 200), smm.MediaUploadParams{ContentType: "image/png"})
	if err != nil || media.AltText != nil {
		t.Fatalf("Upload: %+v, %v", media, err)
	}
	if got, err := c.Media.Get(ctx, media.ID); err != nil || got.ID != media.ID {
		t.Fatalf("Get: %+v, %v", got, err)
	}
	pager := c.Media.List(ctx)
	found := false
	for pager.Next(ctx) {
		found = found || pager.Current().ID == media.ID
	}
	if pager.Err() != nil || !found {
		t.Fatalf("List: found %v, %v", found, pager.Err())
	}
	alt := "Two blocks"
	if updated, err := c.Media.Update(ctx, media.ID, smm.MediaUpdateParams{AltText: &alt}); err != nil || *updated.AltText != alt {
		t.Fatalf("Update: %+v, %v", updated, err)
	}

	account, err := c.Accounts.Create(ctx, smm.AccountCreateParams{Name: "go media"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Accounts.Connect(ctx, account.ID, smm.ConnectionCreateParams{Platform: "feed"}); err != nil {
		t.Fatal(err)
	}
	own := "The post's own"
	post, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "With media", Platforms: []string{"feed"}, ScheduledAt: time.Now().Add(24 * time.Hour), Media: []smm.MediaRef{{ID: media.ID, AltText: &own}}})
	if err != nil || len(post.Media) != 1 || post.Media[0].ID != media.ID || *post.Media[0].AltText != own || *post.Media[0].Width != 300 {
		t.Fatalf("Create with media: %+v, %v", post, err)
	}
	if err := c.Media.Delete(ctx, media.ID); problemCode(err, 409) != "media_in_use" {
		t.Fatalf("deleting media in use: %v", err)
	}
	if post, err = c.Posts.Update(ctx, post.ID, smm.PostUpdateParams{Media: []smm.MediaRef{}}); err != nil || len(post.Media) != 0 {
		t.Fatalf("Update without media: %+v, %v", post, err)
	}
	if err := c.Media.Delete(ctx, media.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Media.Get(ctx, media.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("Get after Delete: %v", err)
	}
}
