# frozen_string_literal: true

module Smm
  # The methods of one resource; each calls one API operation.
  class Resource
    # "Not given" for the keywords where nil means something: first_comment: nil sends null (none).
    UNSET = Object.new.freeze
    private_constant :UNSET

    def initialize(client)
      @client = client
    end

    private

    def call(method, path, params: {}, **options)
      response = @client.request(method, path, params: params, **options)
      Record.new(response.body, etag: response.etag) if response.body.is_a?(Hash)
    end

    def time(value)
      value.respond_to?(:iso8601) ? value.iso8601 : value
    end

    # The body's fields that were given (nil means "leave out", as the API's optional fields).
    def fields(**values)
      values.compact
    end

    def repeat_of(repeat)
      repeat = fields(**repeat.transform_keys(&:to_sym))
      repeat.key?(:until) ? repeat.merge(until: time(repeat[:until])) : repeat
    end

    # What create and validate send: the same post. nil leaves a keyword out; inside overrides a nil
    # is sent as null, which there means "none on this platform".
    def post_body(account_id:, content:, platforms:, scheduled_at:, media_urls:, media:, draft:, queue:, repeat:, thread:, first_comment:, overrides:)
      fields(account_id: account_id, content: content, platforms: platforms,
             scheduled_at: time(scheduled_at), media_urls: media_urls, media: media, draft: draft || nil, queue: queue || nil,
             repeat: repeat && repeat_of(repeat), thread: thread, first_comment: first_comment, overrides: overrides)
    end

    def bulk_item(post)
      post = fields(**post.transform_keys(&:to_sym))
      post = post.merge(repeat: repeat_of(post[:repeat])) if post.key?(:repeat)
      post.key?(:scheduled_at) ? post.merge(scheduled_at: time(post[:scheduled_at])) : post
    end
  end

  # /v1/posts
  class Posts < Resource
    # scheduled_at: a Time or an RFC 3339 string; nil publishes now. queue: true publishes at the
    # account's next free queue slot instead; draft: true keeps the post as a draft until #schedule.
    # repeat: { interval: "P1W", count: 4 } (or until:) makes the post the first occurrence of a series.
    # media: [{ id: "med_…", alt_text: }] attaches uploaded media (Media#upload), after media_urls.
    # thread: [{ content:, media_urls: }] (up to 24) follows the post; first_comment goes right under it;
    # overrides: { x: { content:, media_urls:, thread:, first_comment: } } gives one platform its own
    # version (thread: [] and first_comment: nil drop them there).
    def create(account_id:, content:, platforms:, scheduled_at: nil, media_urls: nil, media: nil, draft: false, queue: false, repeat: nil,
               thread: nil, first_comment: nil, overrides: nil, idempotency_key: nil)
      body = post_body(account_id: account_id, content: content, platforms: platforms, scheduled_at: scheduled_at, media_urls: media_urls, media: media,
                       draft: draft, queue: queue, repeat: repeat, thread: thread, first_comment: first_comment, overrides: overrides)
      call("POST", "/v1/posts", body: body, idempotency_key: idempotency_key)
    end

    # Checks a post exactly as #create would, creating nothing: a Record with valid, scheduled_at
    # (as create would store it) and targets (platform, length, limit: "212/280"; parts: each first
    # comment and thread part measured likewise), or the ValidationError create would raise. No post is stored.
    def validate(account_id:, content:, platforms:, scheduled_at: nil, media_urls: nil, media: nil, draft: false, queue: false, repeat: nil,
                 thread: nil, first_comment: nil, overrides: nil)
      body = post_body(account_id: account_id, content: content, platforms: platforms, scheduled_at: scheduled_at, media_urls: media_urls, media: media,
                       draft: draft, queue: queue, repeat: repeat, thread: thread, first_comment: first_comment, overrides: overrides)
      call("POST", "/v1/posts/validate", body: body)
    end

    # Up to 500 posts (each a Hash of create's keywords) in one request: all, or none when any is
    # invalid (a 422 Smm::ApiError, pointers like "#/posts/3/content"). The posts come back in order.
    def create_many(posts, idempotency_key: nil)
      call("POST", "/v1/posts/bulk", body: { posts: posts.map { |post| bulk_item(post) } }, idempotency_key: idempotency_key).data
    end

    # Checks posts as create_many would, creating nothing: their count, or a 422 Smm::ApiError.
    def validate_many(posts)
      call("POST", "/v1/posts/bulk", body: { posts: posts.map { |post| bulk_item(post) }, dry_run: true }).count
    end

    def get(id)
      call("GET", "/v1/posts/{id}", params: { id: id })
    end

    # Every post, page after page (limit: the page size, 1 to 100). from/to: Time or RFC 3339.
    # series_id: only the occurrences of that series (ser_…).
    # workspace_id: only that workspace's (default: every workspace you belong to).
    def list(account_id: nil, status: nil, platform: nil, from: nil, to: nil, order: nil, limit: nil, series_id: nil, workspace_id: nil)
      query = fields(account_id: account_id, status: status, platform: platform, from: time(from), to: time(to),
                     order: order, limit: limit, series_id: series_id, workspace_id: workspace_id)
      List.new(@client, "/v1/posts", query: query)
    end

    # Changes the fields given of a scheduled post or a draft: thread: [] drops the thread,
    # first_comment: nil the first comment, overrides: replaces the whole set ({} drops them).
    # if_match: the post's #etag as read; a 412 (PreconditionFailedError) says someone changed it since.
    def update(id, content: nil, platforms: nil, scheduled_at: nil, media_urls: nil, media: nil, thread: nil, first_comment: UNSET,
               overrides: nil, if_match: nil)
      body = fields(content: content, platforms: platforms, scheduled_at: time(scheduled_at), media_urls: media_urls, media: media, thread: thread,
                    overrides: overrides)
      body[:first_comment] = first_comment unless first_comment.equal?(UNSET)
      call("PUT", "/v1/posts/{id}", params: { id: id }, body: body, if_match: if_match)
    end

    # Schedules a draft: at scheduled_at, at the account's next free queue slot (queue: true), or
    # now. if_match: the draft's #etag as read; a 412 (PreconditionFailedError) says it changed since.
    def schedule(id, scheduled_at: nil, queue: false, if_match: nil, idempotency_key: nil)
      body = fields(scheduled_at: time(scheduled_at), queue: queue || nil)
      call("POST", "/v1/posts/{id}/schedule", params: { id: id }, body: body, if_match: if_match, idempotency_key: idempotency_key)
    end

    # An occurrence of a series is cancelled alone (the series goes on with the next); with
    # series: true the series stops too: every scheduled occurrence is cancelled, none follows.
    def cancel(id, series: false)
      call("DELETE", "/v1/posts/{id}", params: { id: id }, query: series ? { series: "true" } : nil)
    end

    def retry(id, idempotency_key: nil)
      call("POST", "/v1/posts/{id}/retry", params: { id: id }, idempotency_key: idempotency_key)
    end

    # Approves a post waiting for approval (admins and owners): it is scheduled, or published at once
    # if its time has passed. A comment is kept with the post, as the approval's.
    def approve(id, comment: nil)
      call("POST", "/v1/posts/{id}/approve", params: { id: id }, body: fields(comment: comment))
    end

    # Asks for changes to a post waiting for approval (admins and owners); comment says what. The post
    # is rejected until an edit makes it wait for approval again.
    def reject(id, comment:)
      call("POST", "/v1/posts/{id}/reject", params: { id: id }, body: { comment: comment })
    end

    # The post's comments, oldest first: the team's, reviewers', and each decision's (decision:
    # approved or rejected). Each has an author (type user, review_link or system, and name).
    def comments(id, limit: nil)
      List.new(@client, "/v1/posts/{id}/comments", params: { id: id }, query: fields(limit: limit))
    end

    # Comments on a post (any member, viewers too).
    def add_comment(id, body, idempotency_key: nil)
      call("POST", "/v1/posts/{id}/comments", params: { id: id }, body: { body: body }, idempotency_key: idempotency_key)
    end

    # Makes a review link (admins and owners): its url, shown only here, lets someone without an
    # account approve the post or ask for changes until it expires (expires_in seconds; a week).
    def create_review_link(id, expires_in: nil)
      call("POST", "/v1/posts/{id}/review-links", params: { id: id }, body: fields(expires_in: expires_in))
    end

    # The post's review links, oldest first, each with its state (active, expired or revoked).
    def review_links(id)
      List.new(@client, "/v1/posts/{id}/review-links", params: { id: id })
    end

    # Revokes a review link: its page says so from then on.
    def revoke_review_link(id, link_id)
      call("DELETE", "/v1/posts/{id}/review-links/{link_id}", params: { id: id, link_id: link_id })
      nil
    end
  end

  # /v1/accounts
  # The platforms this daemon publishes to: how each connects (auth, credentials) and its limits
  # (limits.text.max, .count, .caption_max…; limits.media.max…). Needs accounts:read.
  class Platforms < Resource
    def list
      List.new(@client, "/v1/platforms", query: {})
    end
  end

  class Accounts < Resource
    # workspace_id: only that workspace's (default: every workspace you belong to).
    def list(platform: nil, limit: nil, workspace_id: nil)
      List.new(@client, "/v1/accounts", query: fields(platform: platform, limit: limit, workspace_id: workspace_id))
    end

    # workspace_id: where the account goes (default: your personal workspace).
    def create(name:, workspace_id: nil, idempotency_key: nil)
      call("POST", "/v1/accounts", body: fields(name: name, workspace_id: workspace_id), idempotency_key: idempotency_key)
    end

    def get(id)
      call("GET", "/v1/accounts/{id}", params: { id: id })
    end

    # Renames the account (account.updated).
    def update(id, name:)
      call("PATCH", "/v1/accounts/{id}", params: { id: id }, body: { name: name })
    end

    # Deletes the account with its connections, posts and feed. An account with scheduled posts
    # is deleted only with cancel_posts: true (each post gets post.cancelled); otherwise 409.
    def delete(id, cancel_posts: false)
      call("DELETE", "/v1/accounts/{id}", params: { id: id }, query: cancel_posts ? { cancel_posts: "true" } : nil)
      nil
    end

    # credentials: the platform's (see the API's platform table); feed and OAuth platforms need none.
    # An OAuth platform (x, linkedin, threads, facebook, instagram) answers a pending connection:
    # status "pending", authorize_url to open and approve, expires_at. options: e.g. { page_id: "…" }.
    def connect(id, platform:, credentials: nil, options: nil, idempotency_key: nil)
      call("POST", "/v1/accounts/{id}/connections", params: { id: id },
                                                    body: fields(platform: platform, credentials: credentials, options: options),
                                                    idempotency_key: idempotency_key)
    end

    def disconnect(id, platform:)
      call("DELETE", "/v1/accounts/{id}/connections/{platform}", params: { id: id, platform: platform })
      nil
    end

    # The account's weekly queue slots (in the user's time zone: timezone), and next, its next
    # free slot times.
    def queue(id)
      call("GET", "/v1/accounts/{id}/queue", params: { id: id })
    end

    # Replaces the account's queue slots: [{ day: "monday", time: "09:00" }, …]; [] empties it.
    def set_queue(id, slots:)
      call("PUT", "/v1/accounts/{id}/queue", params: { id: id }, body: { slots: slots })
    end
  end

  # /v1/webhooks
  class Webhooks < Resource
    def list(limit: nil, workspace_id: nil)
      List.new(@client, "/v1/webhooks", query: fields(limit: limit, workspace_id: workspace_id))
    end

    # The answer's #secret is shown this once: keep it to verify deliveries. workspace_id: whose
    # events it receives (default: your personal workspace).
    def create(url:, events:, description: nil, workspace_id: nil, idempotency_key: nil)
      call("POST", "/v1/webhooks", body: fields(url: url, events: events, description: description, workspace_id: workspace_id),
                                   idempotency_key: idempotency_key)
    end

    def get(id)
      call("GET", "/v1/webhooks/{id}", params: { id: id })
    end

    def update(id, url: nil, events: nil, description: nil, enabled: nil)
      body = fields(url: url, events: events, description: description, enabled: enabled)
      call("PATCH", "/v1/webhooks/{id}", params: { id: id }, body: body)
    end

    def delete(id)
      call("DELETE", "/v1/webhooks/{id}", params: { id: id })
      nil
    end

    # Sends a webhook.test event; the answer's #event_id is the delivery's webhook-id.
    def test(id, idempotency_key: nil)
      call("POST", "/v1/webhooks/{id}/test", params: { id: id }, idempotency_key: idempotency_key)
    end

    def rotate_secret(id, idempotency_key: nil)
      call("POST", "/v1/webhooks/{id}/rotate-secret", params: { id: id }, idempotency_key: idempotency_key)
    end

    # Sends one delivery again now, same webhook-id and body; delivery_id is its event id (msg_…)
    # or the id of one of its attempts (dlv_…).
    def resend_delivery(id, delivery_id:)
      call("POST", "/v1/webhooks/{id}/deliveries/{delivery_id}/resend", params: { id: id, delivery_id: delivery_id })
    end

    def deliveries(id, limit: nil)
      List.new(@client, "/v1/webhooks/{id}/deliveries", params: { id: id }, query: fields(limit: limit))
    end
  end

  # /v1/api-keys
  class ApiKeys < Resource
    def list(limit: nil)
      List.new(@client, "/v1/api-keys", query: fields(limit: limit))
    end

    # scopes: nil for every scope. The answer's #secret is shown this once.
    def create(name:, scopes: nil, expires_at: nil, idempotency_key: nil)
      call("POST", "/v1/api-keys", body: fields(name: name, scopes: scopes, expires_at: time(expires_at)),
                                   idempotency_key: idempotency_key)
    end

    def revoke(id)
      call("DELETE", "/v1/api-keys/{id}", params: { id: id })
      nil
    end
  end

  # /v1/ai
  class Ai < Resource
    def generate(prompt:, platforms: nil, tone: nil, variants: nil, language: nil, hashtags: nil, idempotency_key: nil)
      body = fields(prompt: prompt, platforms: platforms, tone: tone, variants: variants, language: language,
                    hashtags: hashtags)
      call("POST", "/v1/ai/generate", body: body, idempotency_key: idempotency_key)
    end
  end

  # /v1/analytics
  class Analytics < Resource
    # from/to: a Time, an RFC 3339 string or a date (YYYY-MM-DD); interval: day, week or month.
    # workspace_id: the workspace reported on (default: the account's or post's, else your personal one).
    def get(from: nil, to: nil, account_id: nil, platform: nil, post_id: nil, interval: nil, workspace_id: nil)
      query = fields(from: time(from), to: time(to), account_id: account_id, platform: platform, post_id: post_id,
                     interval: interval, workspace_id: workspace_id)
      call("GET", "/v1/analytics", query: query)
    end
  end

  # /v1/workspaces: the workspaces you belong to and their members. Accounts, posts and webhooks
  # live in a workspace; its members act on them by their role (owner, admin, editor, viewer).
  class Workspaces < Resource
    def list(limit: nil)
      List.new(@client, "/v1/workspaces", query: fields(limit: limit))
    end

    # A workspace to share accounts; you are its owner (timezone: yours by default).
    def create(name:, approval_required: false, timezone: nil, idempotency_key: nil)
      call("POST", "/v1/workspaces", body: fields(name: name, approval_required: approval_required, timezone: timezone),
                                     idempotency_key: idempotency_key)
    end

    def get(id)
      call("GET", "/v1/workspaces/{id}", params: { id: id })
    end

    # Renames it, requires approval of editors' posts, or changes its zone (nil: unchanged).
    def update(id, name: nil, approval_required: nil, timezone: nil)
      body = fields(name: name, approval_required: approval_required, timezone: timezone)
      call("PATCH", "/v1/workspaces/{id}", params: { id: id }, body: body)
    end

    # Deletes a shared workspace that has no accounts left (owner only).
    def delete(id)
      call("DELETE", "/v1/workspaces/{id}", params: { id: id })
      nil
    end

    def members(id, limit: nil)
      List.new(@client, "/v1/workspaces/{id}/members", params: { id: id }, query: fields(limit: limit))
    end

    # Adds a user, by user_id or email, with a role.
    def add_member(id, role:, user_id: nil, email: nil, idempotency_key: nil)
      call("POST", "/v1/workspaces/{id}/members", params: { id: id }, body: fields(role: role, user_id: user_id, email: email),
                                                  idempotency_key: idempotency_key)
    end

    def set_role(id, user_id:, role:)
      call("PATCH", "/v1/workspaces/{id}/members/{user_id}", params: { id: id, user_id: user_id }, body: { role: role })
    end

    # Removes a member, who loses access at once (your own user_id: you leave).
    def remove_member(id, user_id:)
      call("DELETE", "/v1/workspaces/{id}/members/{user_id}", params: { id: id, user_id: user_id })
      nil
    end

    # What was done in the workspace, by whom, newest first (owners and admins): each entry's kind,
    # actor, object (type and id) and summary. kind: event types separated by commas ("post.*" for a
    # family); from inclusive, to exclusive (a Time or an RFC 3339 string).
    def audit_log(id, kind: nil, from: nil, to: nil, limit: nil)
      List.new(@client, "/v1/workspaces/{id}/audit-log", params: { id: id },
                                                         query: fields(kind: kind, from: time(from), to: time(to), limit: limit))
    end
  end

  # /feeds/{account_id}.*: an account's published posts, as the feed readers take them.
  class Feeds < Resource
    # The RSS 2.0 document, as a String.
    def rss(account_id)
      @client.request("GET", "/feeds/{account_id}.rss", params: { account_id: account_id }).body
    end

    # The Atom document, as a String.
    def atom(account_id)
      @client.request("GET", "/feeds/{account_id}.atom", params: { account_id: account_id }).body
    end

    # The JSON Feed, as a Hash.
    def json(account_id)
      @client.request("GET", "/feeds/{account_id}.json", params: { account_id: account_id }).body
    end

    # The feed as a web page (each post an article anchored by its id), as a String.
    def html(account_id)
      @client.request("GET", "/feeds/{account_id}.html", params: { account_id: account_id }).body
    end
  end

  # Images and videos you upload (/v1/media), and their bytes by public URL.
  class Media < Resource
    # Uploads a file: a path (String or Pathname), streamed from the disk as it is sent, or its bytes
    # as a binary String (File.binread), of content_type image/jpeg, image/png, image/gif, image/webp,
    # video/mp4 or video/quicktime. on_progress (or a block) is called with (sent, total) as the
    # bytes leave. A refusal raises Smm::ApiError: media_type_mismatch, unsupported_media_type,
    # media_too_large, media_quota_exceeded.
    def upload(file, content_type:, alt_text: nil, on_progress: nil, idempotency_key: nil, &block)
      body = Upload.new(file, content_type, on_progress || block)
      call("POST", "/v1/media", query: fields(alt_text: alt_text), upload: body, idempotency_key: idempotency_key)
    end

    def get(id)
      call("GET", "/v1/media/{id}", params: { id: id })
    end

    # Your media, newest first.
    def list(limit: nil)
      List.new(@client, "/v1/media", query: fields(limit: limit))
    end

    # Changes the alt text (nil removes it).
    def update(id, alt_text:)
      call("PATCH", "/v1/media/{id}", params: { id: id }, body: { alt_text: alt_text })
    end

    # Raises a ConflictError (media_in_use) while a draft, scheduled or publishing post uses it.
    def delete(id)
      call("DELETE", "/v1/media/{id}", params: { id: id })
      nil
    end

    # The bytes behind a media's public URL, by its last segment (<token>.<ext>).
    def file(file)
      @client.request("GET", "/media/{file}", params: { file: file }).body
    end
  end
end
