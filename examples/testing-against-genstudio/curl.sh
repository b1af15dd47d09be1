#!/usr/bin/env bash
# Scripts an answer with curl, checks the client gets it, and reads the request log.
# Run a studio (`npm run studio`), then: bash curl.sh
set -euo pipefail
URL="${GENSTUDIO_URL:-http://127.0.0.1:3000}"
KEY="${GENSTUDIO_KEY:-genstudio-dev-key}"

# The first generateContent answers 503, the second the scripted text; later ones the engine.
curl -sf -H "x-goog-api-key: $KEY" -H "Content-Type: application/json" "$URL/emulator/scenarios" -d '{
  "match": { "operation": "generateContent", "textContains": "Paris" },
  "respond": [ { "error": { "code": 503 } }, { "text": "Sunny, 21 °C." } ]
}' > /dev/null

ask() {
  curl -s -o /dev/stderr -w '%{http_code}\n' -H "x-goog-api-key: $KEY" \
    -H "Content-Type: application/json" \
    -d '{"contents": [{"parts": [{"text": "What is the weather in Paris?"}]}]}' \
    "$URL/v1beta/models/gemini-2.5-flash:generateContent" 2>/dev/null
}
test "$(ask)" = 503
test "$(ask)" = 200

# The request log: the two calls, newest last, with the scenario that answered each.
curl -sf -H "x-goog-api-key: $KEY" "$URL/emulator/requests?operation=generateContent&limit=2" |
  grep -c '"scenarioId"' | grep -qx 2

# The next embedding request gets the given vectors, one per input (values as sent).
curl -sf -H "x-goog-api-key: $KEY" -H "Content-Type: application/json" "$URL/emulator/scenarios" -d '{
  "match": { "operation": "embeddings" },
  "respond": { "embeddings": [ [1, 0, 0], [0, 0.6, 0.8] ] }, "times": 1
}' > /dev/null
curl -sf -H "x-goog-api-key: $KEY" -H "Content-Type: application/json" \
  "$URL/v1beta/models/gemini-embedding-001:batchEmbedContents" -d '{"requests": [
    {"content": {"parts": [{"text": "river"}]}, "outputDimensionality": 3},
    {"content": {"parts": [{"text": "lantern"}]}, "outputDimensionality": 3}]}' |
  tr -d ' \n' | grep -q '"values":\[0,0.6,0.8\]'

curl -sf -X DELETE -H "x-goog-api-key: $KEY" "$URL/emulator/scenarios" > /dev/null
echo "curl example: ok"
