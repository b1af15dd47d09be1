"""google-genai (the Python SDK), unchanged but for http_options.base_url and the key.

Streams are read by the SDK's own SSE reader (google/genai/_api_client.py), which takes any
line that is not `data: ` as an error body: the stream cases are what issue 13 found broken.
"""

import asyncio
import io
import json
import time

from cases import case, expect

CASES = []


def unavailable():
    try:
        import google.genai  # noqa: F401
    except ImportError as error:
        return f"google-genai is not installed in the venv: {error}"
    return None


_clients = {}


def client(target):
    """One client per server for the whole run: a Client closes its connection pool when it is
    garbage-collected, which would cut a pager or stream still reading through it."""
    from google import genai
    from google.genai import types

    if target.base_url not in _clients:
        _clients[target.base_url] = genai.Client(
            api_key=target.api_key, http_options=types.HttpOptions(base_url=target.base_url)
        )
    return _clients[target.base_url]


def config(target, **fields):
    from google.genai import types

    return types.GenerateContentConfig(
        thinking_config=types.ThinkingConfig(thinking_budget=0), **fields
    )


def safety(target):
    from google.genai import types

    return [types.SafetySetting(**setting) for setting in target.fixtures["DANGEROUS_ONLY_HIGH"]]


def declaration(fixture):
    from google.genai import types

    return types.FunctionDeclaration(**fixture)


@case(CASES, "models list and get")
def models(target):
    ai = client(target)
    model = target.fixtures["MODEL"]
    names = [item.name for item in ai.models.list(config={"page_size": 3})]
    expect(f"models/{model}" in names, f"models/{model} not listed: {names}")
    found = ai.models.get(model=model)
    expect(found.input_token_limit == 1_048_576, f"input_token_limit {found.input_token_limit}")


@case(CASES, "countTokens matches the usage of a generation")
def count_tokens(target):
    ai = client(target)
    fixtures = target.fixtures
    counted = ai.models.count_tokens(model=fixtures["MODEL"], contents=fixtures["FOX"])
    expect(counted.total_tokens == fixtures["FOX_TOKENS"], f"total_tokens {counted.total_tokens}")
    response = ai.models.generate_content(
        model=fixtures["MODEL"], contents=fixtures["FOX"], config=config(target)
    )
    usage = response.usage_metadata
    expect(usage.prompt_token_count == counted.total_tokens, f"usage {usage}")
    expect(usage.total_token_count == usage.prompt_token_count + usage.candidates_token_count, f"{usage}")


@case(CASES, "generate with config, system instruction and response schema")
def generate_with_schema(target):
    fixtures = target.fixtures
    response = client(target).models.generate_content(
        model=fixtures["MODEL"],
        contents="Name a city by the sea and its population.",
        config=config(
            target,
            system_instruction=fixtures["SYSTEM_INSTRUCTION"],
            temperature=0.2,
            max_output_tokens=200,
            response_mime_type="application/json",
            response_schema=fixtures["CITY_SCHEMA"],
        ),
    )
    parsed = json.loads(response.text)
    expect(isinstance(parsed["city"], str), f"city {parsed}")
    expect(isinstance(parsed["population"], int), f"population {parsed}")


@case(CASES, "stream")
def stream(target):
    chunks = list(
        client(target).models.generate_content_stream(
            model=target.fixtures["MODEL"],
            contents="Tell me about lighthouses.",
            config=config(target, max_output_tokens=120),
        )
    )
    text = "".join(chunk.text or "" for chunk in chunks)
    expect(len(chunks) > 1, f"{len(chunks)} chunks")
    expect(len(text) > 20, f"text {text!r}")
    expect(chunks[-1].candidates[0].finish_reason is not None, "no finish reason")
    expect(chunks[-1].usage_metadata.candidates_token_count > 0, "no candidate tokens")


@case(CASES, "stream, async client")
def stream_async(target):
    async def run():
        text = ""
        async for chunk in await client(target).aio.models.generate_content_stream(
            model=target.fixtures["MODEL"],
            contents="Tell me about lighthouses.",
            config=config(target, max_output_tokens=60),
        ):
            text += chunk.text or ""
        return text

    text = asyncio.run(run())
    expect(len(text) > 10, f"text {text!r}")


@case(CASES, "chat with stream keeps the history")
def chat_stream(target):
    chat = client(target).chats.create(model=target.fixtures["MODEL"], config=config(target))
    first = chat.send_message("My name is Ada.")
    expect(first.text, "no first answer")
    text = "".join(chunk.text or "" for chunk in chat.send_message_stream("What is my name?"))
    expect(text, "no streamed answer")
    history = chat.get_history()
    users = [content.parts[0].text for content in history if content.role == "user"]
    expect(users == ["My name is Ada.", "What is my name?"], f"history {users}")
    expect(history[-1].role == "model", "history does not end with the model")


@case(CASES, "cache create, then use in a stream")
def cache_stream(target):
    from google.genai import types

    ai = client(target)
    fixtures = target.fixtures
    cache = ai.caches.create(
        model=fixtures["MODEL"],
        config=types.CreateCachedContentConfig(
            contents=[types.Content(role="user", parts=[types.Part(text=fixtures["CACHE_TEXT"])])],
            system_instruction=fixtures["SYSTEM_INSTRUCTION"],
            ttl="600s",
        ),
    )
    size = cache.usage_metadata.total_token_count
    expect(size >= 1024, f"cache size {size}")
    chunks = list(
        ai.models.generate_content_stream(
            model=fixtures["MODEL"],
            contents="What did the keeper log?",
            config=config(target, cached_content=cache.name, max_output_tokens=60),
        )
    )
    expect("".join(chunk.text or "" for chunk in chunks), "no text")
    cached = chunks[-1].usage_metadata.cached_content_token_count
    expect(cached == size, f"cached_content_token_count {cached}, cache size {size}")
    ai.caches.delete(name=cache.name)


@case(CASES, "file upload, ACTIVE, used in a prompt")
def file_upload(target):
    from google.genai import types

    ai = client(target)
    fixtures = target.fixtures
    uploaded = ai.files.upload(
        file=io.BytesIO(fixtures["FILE_TEXT"].encode()),
        config=types.UploadFileConfig(mime_type="text/plain", display_name="harbour log"),
    )
    file = uploaded
    for _ in range(100):
        if file.state == "ACTIVE":
            break
        time.sleep(0.1)
        file = ai.files.get(name=uploaded.name)
    expect(file.state == "ACTIVE", f"state {file.state}")
    contents = [
        types.Part.from_uri(file_uri=file.uri, mime_type=file.mime_type),
        "How many boats did the Harbourmaster count?",
    ]
    counted = ai.models.count_tokens(model=fixtures["MODEL"], contents=contents).total_tokens
    response = ai.models.generate_content(
        model=fixtures["MODEL"], contents=contents, config=config(target)
    )
    expect(counted > 300, f"count {counted}")
    usage = response.usage_metadata.prompt_token_count
    expect(usage == counted, f"prompt_token_count {usage}, countTokens {counted}")
    ai.files.delete(name=file.name)


@case(CASES, "function calling, manual: call, response, answer")
def function_manual(target):
    from google.genai import types

    ai = client(target)
    fixtures = target.fixtures
    tools = [types.Tool(function_declarations=[declaration(fixtures["LIGHTS_FUNCTION"])])]
    no_automatic = types.AutomaticFunctionCallingConfig(disable=True)
    first = ai.models.generate_content(
        model=fixtures["MODEL"],
        contents=fixtures["LIGHTS_PROMPT"],
        config=config(
            target,
            tools=tools,
            tool_config=types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(mode="ANY")
            ),
            automatic_function_calling=no_automatic,
        ),
    )
    call = first.function_calls[0]
    expect(call.name == "set_light_level", f"call {call}")
    expect(isinstance(call.args.get("room"), str), f"args {call.args}")
    second = ai.models.generate_content(
        model=fixtures["MODEL"],
        contents=[
            types.Content(role="user", parts=[types.Part(text=fixtures["LIGHTS_PROMPT"])]),
            first.candidates[0].content,
            types.Content(
                role="user",
                parts=[
                    types.Part.from_function_response(
                        name=call.name, response={"result": "done", "level": 50}
                    )
                ],
            ),
        ],
        config=config(
            target,
            tools=tools,
            tool_config=types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(mode="NONE")
            ),
            automatic_function_calling=no_automatic,
        ),
    )
    expect(second.text, "no answer after the function response")


@case(CASES, "function calling, AUTO: the weather question calls get_weather(Paris)")
def function_auto(target):
    from google.genai import types

    fixtures = target.fixtures
    response = client(target).models.generate_content(
        model=fixtures["MODEL"],
        contents=fixtures["WEATHER_PROMPT"],
        config=config(
            target,
            tools=[types.Tool(function_declarations=[declaration(fixtures["WEATHER_FUNCTION"])])],
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        ),
    )
    call = (response.function_calls or [None])[0]
    expect(call is not None and call.name == "get_weather", f"no get_weather call: {response.text!r}")
    expect(call.args == {"city": "Paris"}, f"args {call.args}")


@case(CASES, "function calling, automatic: the SDK calls a Python function and answers")
def function_automatic(target):
    calls = []

    def get_weather(city: str) -> dict:
        """Get the current weather in a city.

        Args:
            city: The city.
        """
        calls.append(city)
        return {"forecast": "sunny, 21 C"}

    response = client(target).models.generate_content(
        model=target.fixtures["MODEL"],
        contents=target.fixtures["WEATHER_PROMPT"],
        config=config(target, tools=[get_weather]),
    )
    expect(calls == ["Paris"], f"calls {calls}")
    expect(response.text, "no answer after the call")
    history = response.automatic_function_calling_history or []
    expect(len(history) >= 3, f"history of {len(history)} contents")


@case(CASES, "safety block, unary: the prompt is blocked")
def safety_unary(target):
    response = client(target).models.generate_content(
        model=target.fixtures["MODEL"],
        contents=target.fixtures["BLOCKED_PROMPT"],
        config=config(target, safety_settings=safety(target)),
    )
    expect(response.prompt_feedback.block_reason == "SAFETY", f"{response.prompt_feedback}")
    expect(not response.candidates, "candidates despite the block")
    expect(response.text is None, "text despite the block")


@case(CASES, "safety block, streamed: the answer stops with finish_reason SAFETY")
def safety_stream(target):
    chunks = list(
        client(target).models.generate_content_stream(
            model=target.fixtures["MODEL"],
            contents=target.fixtures["BLOCKED_ANSWER_PROMPT"],
            config=config(target, safety_settings=safety(target)),
        )
    )
    last = chunks[-1].candidates[0]
    expect(last.finish_reason == "SAFETY", f"finish_reason {last.finish_reason}")
    expect(any(rating.blocked for rating in last.safety_ratings or []), "no blocked rating")
    expect("bomb" not in "".join(chunk.text or "" for chunk in chunks), "blocked text streamed")


@case(CASES, "safety: ordinary hostile text is blocked at BLOCK_LOW_AND_ABOVE")
def safety_hostile(target):
    from google.genai import types

    response = client(target).models.generate_content(
        model=target.fixtures["MODEL"],
        contents=target.fixtures["HOSTILE_TEXT"],
        config=config(
            target,
            safety_settings=[
                types.SafetySetting(
                    category="HARM_CATEGORY_HARASSMENT", threshold="BLOCK_LOW_AND_ABOVE"
                )
            ],
        ),
    )
    expect(response.prompt_feedback is not None, "not blocked")
    expect(response.prompt_feedback.block_reason == "SAFETY", f"{response.prompt_feedback}")


@case(CASES, "batches: inline and JSONL file, results read and downloaded")
def batches(target):
    ai = client(target)
    fixtures = target.fixtures
    model = fixtures["MODEL"]
    prompts = fixtures["BATCH_PROMPTS"]
    ended = set(fixtures["BATCH_ENDED"])

    def wait(name):
        for _ in range(600):
            job = ai.batches.get(name=name)
            if job.state.name in ended:
                return job
            time.sleep(0.1)
        raise AssertionError(f"{name} did not end")

    inline = ai.batches.create(
        model=model,
        src=[
            {
                "contents": [{"parts": [{"text": text}], "role": "user"}],
                "metadata": {"key": f"q{index}"},
                "config": {"max_output_tokens": 40, "thinking_config": {"thinking_budget": 0}},
            }
            for index, text in enumerate(prompts)
        ],
        config={"display_name": "client suite"},
    )
    expect(inline.state.name == "JOB_STATE_PENDING", f"state {inline.state}")
    done = wait(inline.name)
    expect(done.state.name == "JOB_STATE_SUCCEEDED", f"state {done.state}")
    answers = done.dest.inlined_responses
    expect([answer.metadata for answer in answers] == [{"key": "q0"}, {"key": "q1"}], f"{answers}")
    expect(all(answer.response.text for answer in answers), "an empty answer")

    lines = "".join(
        json.dumps(
            {
                "key": f"f{index}",
                "request": {
                    "contents": [{"parts": [{"text": text}]}],
                    "generation_config": {"max_output_tokens": 40, "thinking_config": {"thinking_budget": 0}},
                },
            }
        )
        + "\n"
        for index, text in enumerate(prompts)
    )
    # The batch guide uploads its input as mime_type "jsonl".
    uploaded = ai.files.upload(
        file=io.BytesIO(lines.encode()), config={"mime_type": "jsonl", "display_name": "requests"}
    )
    from_file = ai.batches.create(model=model, src=uploaded.name)
    done = wait(from_file.name)
    expect(done.state.name == "JOB_STATE_SUCCEEDED", f"state {done.state}")
    content = ai.files.download(file=done.dest.file_name).decode()
    keys = [json.loads(line)["key"] for line in content.splitlines()]
    expect(keys == ["f0", "f1"], f"keys {keys}")

    listed = [job.name for job in ai.batches.list(config={"page_size": 5})]
    expect(inline.name in listed and from_file.name in listed, f"listed {listed}")
    ai.batches.delete(name=inline.name)
    ai.batches.delete(name=from_file.name)
    try:
        ai.batches.get(name=inline.name)
        raise AssertionError("a deleted batch was still found")
    except Exception as error:  # noqa: BLE001 - the SDK's ClientError
        expect(getattr(error, "code", None) == 404, f"{error}")


def _cosine(left, right):
    dot = sum(a * b for a, b in zip(left, right))
    norms = (sum(a * a for a in left) * sum(b * b for b in right)) ** 0.5
    return dot / norms


@case(CASES, "embed_content: vectors that rank a matching document first, shortened on request")
def embed_content(target):
    from google.genai import types

    ai = client(target)
    fixtures = target.fixtures
    model = fixtures["EMBEDDING_MODEL"]
    documents = ai.models.embed_content(
        model=model,
        contents=fixtures["EMBEDDING_DOCUMENTS"],
        config=types.EmbedContentConfig(task_type="RETRIEVAL_DOCUMENT"),
    )
    matching, other = [embedding.values for embedding in documents.embeddings]
    query = ai.models.embed_content(
        model=model,
        contents=fixtures["EMBEDDING_QUERY"],
        config=types.EmbedContentConfig(task_type="RETRIEVAL_QUERY"),
    ).embeddings[0].values
    expect(len(query) == 3072, f"{len(query)} values")
    expect(_cosine(query, matching) > _cosine(query, other), "the other document ranked first")
    short = ai.models.embed_content(
        model=fixtures["MULTIMODAL_EMBEDDING_MODEL"],
        contents=fixtures["EMBEDDING_QUERY"],
        config=types.EmbedContentConfig(output_dimensionality=128),
    ).embeddings[0].values
    expect(len(short) == 128, f"{len(short)} values")
    expect(abs(sum(value * value for value in short) - 1) < 1e-4, "a shortened gemini-embedding-2 vector is of unit length")
    try:
        ai.models.embed_content(
            model=model,
            contents="x",
            config=types.EmbedContentConfig(output_dimensionality=100_000),
        )
        raise AssertionError("an out-of-range dimensionality was accepted")
    except Exception as error:  # noqa: BLE001 - the SDK's ClientError
        expect(getattr(error, "code", None) == 400, f"{error}")
        expect("output_dimensionality" in str(error), f"{error}")


@case(CASES, "batches: an embedding batch (create_embeddings), its vectors read")
def embedding_batch(target):
    ai = client(target)
    fixtures = target.fixtures
    ended = set(fixtures["BATCH_ENDED"])
    job = ai.batches.create_embeddings(
        model=fixtures["EMBEDDING_MODEL"],
        src={
            "inlined_requests": {
                "contents": [{"parts": [{"text": text}]} for text in fixtures["EMBEDDING_DOCUMENTS"]],
                "config": {"output_dimensionality": 64},
            }
        },
        config={"display_name": "client suite vectors"},
    )
    for _ in range(600):
        if job.state.name in ended:
            break
        time.sleep(0.1)
        job = ai.batches.get(name=job.name)
    expect(job.state.name == "JOB_STATE_SUCCEEDED", f"state {job.state}")
    results = job.dest.inlined_embed_content_responses
    lengths = [len(result.response.embedding.values) for result in results]
    expect(lengths == [64, 64], f"lengths {lengths}")
    ai.batches.delete(name=job.name)
