import smm

client = smm.Client()
# list() follows next_cursor for you: `limit` is only the page size.
for post in client.posts.list(status="scheduled", limit=50):
    print(post.id, post.scheduled_at, post.content[:40])
