import smm

client = smm.Client()
try:
    client.posts.create(account_id="acc_missing", content="Hi", platforms=["myspace"])
except smm.ValidationError as error:  # 400/422; smm.ApiError catches every API error
    print(error.status, error.code, error.request_id)
    for field in error.errors:
        print(field["pointer"], field["detail"])

try:
    client.posts.get("pst_missing")
except smm.NotFoundError as error:
    print(error.status, error.code, error.problem["detail"])
