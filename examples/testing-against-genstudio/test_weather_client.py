# Tests a small client of the service against Genstudio's emulator with pytest and google-genai.
# Run a studio (`npm run studio`), then: GENSTUDIO_URL=http://127.0.0.1:3000 pytest test_weather_client.py
import os

import httpx
import pytest
from google import genai
from google.genai import errors, types

URL = os.environ.get("GENSTUDIO_URL", "http://127.0.0.1:3000")
KEY = os.environ.get("GENSTUDIO_KEY", "genstudio-dev-key")


def forecast(client: genai.Client, city: str) -> str:
    """The code under test: asks the model for a city's weather."""
    answer = client.models.generate_content(
        model="gemini-2.5-flash", contents=f"What is the weather in {city}?"
    )
    return answer.text


@pytest.fixture
def emulator():
    """Scenarios of this test's key only; cleared after each test."""
    with httpx.Client(base_url=f"{URL}/emulator", headers={"x-goog-api-key": KEY}) as http:
        yield http
        http.delete("/scenarios")


@pytest.fixture
def client():
    return genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=URL))


def test_answers_with_the_scripted_text(emulator, client):
    emulator.post(
        "/scenarios",
        json={"match": {"textContains": "weather in Paris"}, "respond": {"text": "Sunny, 21 °C."}},
    ).raise_for_status()
    assert forecast(client, "Paris") == "Sunny, 21 °C."


def test_sees_the_services_quota_error_then_succeeds(emulator, client):
    emulator.post(
        "/scenarios",
        json={
            "match": {"operation": "generateContent"},
            "respond": [
                {
                    "error": {
                        "code": 429,
                        "details": [
                            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}
                        ],
                    }
                },
                {"text": "Rain later."},
            ],
        },
    ).raise_for_status()
    with pytest.raises(errors.ClientError) as failure:
        forecast(client, "Oslo")
    assert failure.value.code == 429
    assert failure.value.status == "RESOURCE_EXHAUSTED"
    assert forecast(client, "Oslo") == "Rain later."


def test_the_request_log_shows_what_the_client_sent(emulator, client):
    emulator.delete("/requests")
    emulator.post("/scenarios", json={"respond": {"text": "Fog."}}).raise_for_status()
    forecast(client, "London")
    [entry] = emulator.get("/requests", params={"operation": "generateContent"}).json()["requests"]
    assert "London" in entry["request"]["text"]
    assert entry["status"] == 200
