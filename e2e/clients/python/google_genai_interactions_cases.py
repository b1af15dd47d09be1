"""The Interactions API as google-genai (the Python SDK) calls it (`client.interactions`, its
generated client in google/genai/_gaos/interactions.py), unchanged but for
http_options.base_url and the key: unary, streamed, resumed, chained, and an agent in the
background polled and cancelled.
"""

import time

from cases import case, expect

CASES = []


def unavailable():
    try:
        from google import genai

        genai.Client(api_key="x").interactions  # noqa: B018
    except Exception as error:  # An SDK without interactions: these cases cannot run.
        return f"google-genai in the venv has no interactions: {error}"
    return None


_clients = {}


def client(target):
    """One client per server for the whole run (see google_genai_cases.client)."""
    from google import genai
    from google.genai import types

    if target.base_url not in _clients:
        _clients[target.base_url] = genai.Client(
            api_key=target.api_key, http_options=types.HttpOptions(base_url=target.base_url)
        )
    return _clients[target.base_url]


def model_text(interaction):
    texts = []
    for step in interaction.steps or []:
        if step.type == "model_output":
            texts.extend(item.text for item in step.content or [] if item.type == "text")
    return "".join(texts)


@case(CASES, "interactions: create and get")
def create_and_get(target):
    interactions = client(target).interactions
    fixtures = target.fixtures
    created = interactions.create(
        model=fixtures["MODEL"],
        input="Tell me a short joke about programming.",
        generation_config=fixtures["INTERACTION_CONFIG"],
    )
    expect(created.id.startswith("v1_"), f"an id of the service's form: {created.id}")
    expect(created.status in ("completed", "incomplete"), f"ended: {created.status}")
    expect(len(model_text(created)) > 0, "an answer")
    usage = created.usage
    expect(
        usage.total_tokens
        == usage.total_input_tokens + usage.total_output_tokens + usage.total_thought_tokens,
        f"usage adds up: {usage}",
    )
    read = interactions.get(id=created.id)
    expect(model_text(read) == model_text(created), "get answers the stored interaction")


@case(CASES, "interactions: stream, and a stream read again after an event")
def stream(target):
    interactions = client(target).interactions
    fixtures = target.fixtures
    events = list(
        interactions.create(
            model=fixtures["MODEL"],
            input="Tell me about lighthouses.",
            generation_config=fixtures["INTERACTION_CONFIG"],
            stream=True,
        )
    )
    types = [event.event_type for event in events]
    expect(types[:2] == ["interaction.created", "interaction.status_update"], f"opens: {types}")
    expect(types[-1] == "interaction.completed", f"ends: {types}")
    interaction_id = events[0].interaction.id
    again = list(interactions.get(id=interaction_id, stream=True))
    expect(len(again) == len(events), "read again, the same events")
    resumed = list(interactions.get(id=interaction_id, stream=True, last_event_id=again[1].event_id))
    expect(
        [event.event_id for event in resumed] == [event.event_id for event in again[2:]],
        "resumed after the second event",
    )


@case(CASES, "interactions: previous_interaction_id continues the conversation")
def chained(target):
    interactions = client(target).interactions
    fixtures = target.fixtures
    first = interactions.create(
        model=fixtures["MODEL"],
        input="Hi, my name is Amir.",
        generation_config=fixtures["INTERACTION_CONFIG"],
    )
    second = interactions.create(
        model=fixtures["MODEL"],
        input="What is my name?",
        previous_interaction_id=first.id,
        generation_config=fixtures["INTERACTION_CONFIG"],
    )
    expect(
        second.usage.total_input_tokens
        > first.usage.total_input_tokens + first.usage.total_output_tokens,
        "the first turn is in the second's prompt",
    )


@case(CASES, "interactions: an agent in the background, cancelled, and one polled to its end")
def background(target):
    interactions = client(target).interactions
    agent = target.fixtures["INTERACTION_AGENT"]
    started = interactions.create(agent=agent, input="Research lighthouses.", background=True)
    expect(started.status == "in_progress", f"answered at once: {started.status}")
    expect(interactions.cancel(id=started.id).status == "cancelled", "cancelled")
    quick = interactions.create(agent=agent, input="Research lighthouses.", background=True)
    for _ in range(300):
        polled = interactions.get(id=quick.id)
        if polled.status != "in_progress":
            break
        time.sleep(0.1)
    expect(polled.status in ("completed", "incomplete"), f"ended: {polled.status}")


@case(CASES, "interactions: errors in this API's body")
def errors(target):
    interactions = client(target).interactions
    try:
        interactions.get(id="v1_not-an-interaction")
    except Exception as error:
        expect("404" in str(error) and "not_found" in str(error), f"a 404: {error}")
    else:
        raise AssertionError("a missing interaction was answered")
    try:
        interactions.create(model=target.fixtures["MODEL"], input="Hi", background=True)
    except Exception as error:
        expect("does not support background" in str(error), f"a 400: {error}")
    else:
        raise AssertionError("a model in the background was accepted")
