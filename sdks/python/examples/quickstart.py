import smm
from datetime import datetime, timedelta, timezone

client = smm.Client()  # SMM_URL, SMM_API_KEY (and SMM_CA_FILE for a self-signed daemon) from the environment
account = client.accounts.create(name="My brand")
client.accounts.connect(account.id, platform="feed")
post = client.posts.create(account_id=account.id, content="Hello from Python!", platforms=["feed"],
                           scheduled_at=datetime.now(timezone.utc) + timedelta(hours=1))
print(post.id, post.status)
