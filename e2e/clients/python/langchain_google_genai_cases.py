"""langchain-google-genai (ChatGoogleGenerativeAI, on google-genai under it), unchanged but for
base_url and the key. It offers token counts (get_num_tokens calls countTokens), structured
output, streams, cached_content, tools; no upload or cache creation, so files and caches come
from google-genai itself (as LangChain's docs do it).
"""

import os
import sys
import time

from cases import case, expect

CASES = []


def unavailable():
    try:
        import langchain_google_genai  # noqa: F401
    except ImportError:
        reason = "not installed in the venv"
        log = os.path.join(sys.prefix, "langchain-install.log")
        if os.path.exists(log):
            with open(log) as lines:
                errors = [line.strip() for line in lines if line.startswith("ERROR")]
            reason = errors[-1] if errors else reason
        return f"langchain-google-genai is not installable from this machine's index: {reason}"
    return None


def chat(target, **fields):
    from langchain_google_genai import ChatGoogleGenerativeAI

    return ChatGoogleGenerativeAI(
        model=target.fixtures["MODEL"],
        google_api_key=target.api_key,
        base_url=target.base_url,
        thinking_budget=0,
        **fields,
    )


def genai_client(target):
    from google_genai_cases import client

    return client(target)


def text_of(message):
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if isinstance(block, dict))


@case(CASES, "countTokens (get_num_tokens) matches the usage of a generation")
def count_tokens(target):
    model = chat(target)
    counted = model.get_num_tokens(target.fixtures["FOX"])
    expect(counted == target.fixtures["FOX_TOKENS"], f"get_num_tokens {counted}")
    answer = model.invoke(target.fixtures["FOX"])
    usage = answer.usage_metadata
    expect(usage["input_tokens"] == counted, f"usage {usage}")
    expect(usage["total_tokens"] == counted + usage["output_tokens"], f"usage {usage}")


@case(CASES, "generate with config, system instruction and structured output")
def structured(target):
    from pydantic import BaseModel

    class City(BaseModel):
        city: str
        population: int

    model = chat(target, temperature=0.2, max_output_tokens=200).with_structured_output(City)
    city = model.invoke(
        [
            ("system", target.fixtures["SYSTEM_INSTRUCTION"]),
            ("human", "Name a city by the sea and its population."),
        ]
    )
    expect(isinstance(city, City) and city.city, f"structured output {city!r}")


@case(CASES, "stream")
def stream(target):
    chunks = list(chat(target, max_output_tokens=120).stream("Tell me about lighthouses."))
    text = "".join(text_of(chunk) for chunk in chunks)
    expect(len(chunks) > 1, f"{len(chunks)} chunks")
    expect(len(text) > 20, f"text {text!r}")


@case(CASES, "chat with stream: the history goes with the next turn")
def chat_stream(target):
    from langchain_core.messages import HumanMessage

    model = chat(target)
    history = [HumanMessage("My name is Ada.")]
    history.append(model.invoke(history))
    history.append(HumanMessage("What is my name?"))
    text = "".join(text_of(chunk) for chunk in model.stream(history))
    expect(text, "no streamed answer")


@case(CASES, "a cache (from google-genai) used in a stream (cached_content)")
def cache_stream(target):
    from google.genai import types

    fixtures = target.fixtures
    client = genai_client(target)
    cache = client.caches.create(
        model=fixtures["MODEL"],
        config=types.CreateCachedContentConfig(
            contents=[types.Content(role="user", parts=[types.Part(text=fixtures["CACHE_TEXT"])])],
            ttl="600s",
        ),
    )
    size = cache.usage_metadata.total_token_count
    chunks = list(chat(target, cached_content=cache.name).stream("What did the keeper log?"))
    expect("".join(text_of(chunk) for chunk in chunks), "no text")
    read = [
        (chunk.usage_metadata or {}).get("input_token_details", {}).get("cache_read")
        for chunk in chunks
    ]
    expect(size in read, f"cache_read {read}, cache size {size}")
    client.caches.delete(name=cache.name)


@case(CASES, "an uploaded file (from google-genai) used in a prompt")
def file_prompt(target):
    import io

    from google.genai import types
    from langchain_core.messages import HumanMessage

    fixtures = target.fixtures
    client = genai_client(target)
    file = client.files.upload(
        file=io.BytesIO(fixtures["FILE_TEXT"].encode()),
        config=types.UploadFileConfig(mime_type="text/plain", display_name="harbour log"),
    )
    for _ in range(100):
        if file.state == "ACTIVE":
            break
        time.sleep(0.1)
        file = client.files.get(name=file.name)
    question = "How many boats did the Harbourmaster count?"
    answer = chat(target).invoke(
        [
            HumanMessage(
                content=[
                    {"type": "media", "file_uri": file.uri, "mime_type": file.mime_type},
                    {"type": "text", "text": question},
                ]
            )
        ]
    )
    counted = client.models.count_tokens(
        model=fixtures["MODEL"],
        contents=[types.Part.from_uri(file_uri=file.uri, mime_type=file.mime_type), question],
    ).total_tokens
    expect(counted > 300, f"count {counted}")
    expect(answer.usage_metadata["input_tokens"] == counted, f"{answer.usage_metadata}, {counted}")


LIGHTS = {
    "title": "set_light_level",
    "description": "Set the brightness of the lights in a room.",
    "type": "object",
    "properties": {
        "room": {"type": "string", "description": "The room."},
        "level": {"type": "integer", "description": "Brightness from 0 to 100."},
    },
    "required": ["room", "level"],
}


@case(CASES, "function calling, manual: tool call, tool message, answer")
def function_manual(target):
    from langchain_core.messages import HumanMessage, ToolMessage

    model = chat(target)
    prompt = HumanMessage(target.fixtures["LIGHTS_PROMPT"])
    call = model.bind_tools([LIGHTS], tool_choice="any").invoke([prompt])
    tool_call = call.tool_calls[0]
    expect(tool_call["name"] == "set_light_level", f"tool call {tool_call}")
    expect(isinstance(tool_call["args"].get("room"), str), f"args {tool_call['args']}")
    answer = model.bind_tools([LIGHTS], tool_choice="none").invoke(
        [prompt, call, ToolMessage(content="done", tool_call_id=tool_call["id"])]
    )
    expect(text_of(answer), "no answer after the tool message")


@case(CASES, "function calling, AUTO: the weather question calls get_weather(Paris)")
def function_auto(target):
    weather = {
        "title": "get_weather",
        "description": "Get the current weather in a city.",
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "required": ["city"],
    }
    call = chat(target).bind_tools([weather]).invoke(target.fixtures["WEATHER_PROMPT"])
    expect(call.tool_calls, f"no tool call: {text_of(call)!r}")
    expect(call.tool_calls[0]["name"] == "get_weather", f"{call.tool_calls}")
    expect(call.tool_calls[0]["args"] == {"city": "Paris"}, f"{call.tool_calls}")


def blocking(target):
    return {
        setting["category"]: setting["threshold"]
        for setting in target.fixtures["DANGEROUS_ONLY_HIGH"]
    }


@case(CASES, "safety block, unary: empty answer with the prompt feedback SAFETY")
def safety_unary(target):
    answer = chat(target, safety_settings=blocking(target)).invoke(target.fixtures["BLOCKED_PROMPT"])
    expect(text_of(answer) == "", f"text {text_of(answer)!r}")
    feedback = answer.response_metadata.get("prompt_feedback") or {}
    expect(str(feedback.get("block_reason")).endswith("SAFETY"), f"feedback {feedback}")


@case(CASES, "safety block, streamed: finish_reason SAFETY, no blocked text")
def safety_stream(target):
    chunks = list(
        chat(target, safety_settings=blocking(target)).stream(target.fixtures["BLOCKED_ANSWER_PROMPT"])
    )
    expect("bomb" not in "".join(text_of(chunk) for chunk in chunks), "blocked text streamed")
    reasons = [str(chunk.response_metadata.get("finish_reason")) for chunk in chunks]
    expect(any(reason.endswith("SAFETY") for reason in reasons), f"finish reasons {reasons}")
