"""check.py: the README's "Use with the OpenAI Agents SDK" snippet, run for
real, twice: once with MCPServerStdio (the SDK starts `pybox mcp`) and once
with MCPServerStreamableHttp (a running `pybox serve`). Run by cmd/pybox's
TestPythonAgentsSDK against the scripted model server (internal/fakellm):

    PYBOX_MODEL_URL=http://127.0.0.1:PORT/v1 PYBOX_BIN=/path/to/pybox \
    PYBOX_URL=http://127.0.0.1:PORT/mcp PYBOX_TOKEN=... python check.py

Only what the environment must decide is taken from it (the model server's
URL and model name, the pybox binary, the serve URL and token); the rest is
the README's code. Run in a folder holding ./data/traffic_accidents.csv.
The scripted model calls execute_python on that CSV and answers with what
the tool printed; each run must end with PYBOX_EXPECT (default "42") in
result.final_output, or this script exits non-zero.
"""
import asyncio
import os
import sys

from openai import AsyncOpenAI
from agents import Agent, Runner, OpenAIChatCompletionsModel, set_tracing_disabled
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp

env = os.environ
pybox_bin = env.get("PYBOX_BIN", "pybox")
url = env.get("PYBOX_URL", "http://127.0.0.1:8765/mcp")
token = env.get("PYBOX_TOKEN", "")
expect = env.get("PYBOX_EXPECT", "42")

model = OpenAIChatCompletionsModel(
    model=env.get("PYBOX_MODEL", "openai/gpt-oss-20b"),
    openai_client=AsyncOpenAI(base_url=env.get("PYBOX_MODEL_URL", "http://localhost:8000/v1"), api_key="EMPTY"),
)
set_tracing_disabled(True)


async def ask(pybox):
    # The body of the README's `async with` block, verbatim.
    agent = Agent(name="analyst", model=model, mcp_servers=[pybox],
                  instructions="Answer with Python: call execute_python. Data is in /data.")
    result = await Runner.run(agent, "Which factors correlate most with accidents in /data/traffic_accidents.csv?")
    print(result.final_output)
    return result.final_output


async def main():
    outputs = {}
    # pybox started by the SDK (stdio) ...
    async with MCPServerStdio(params={"command": pybox_bin, "args": ["mcp", "--mount", "./data:/data:ro"]},
                              client_session_timeout_seconds=120) as pybox:
        outputs["stdio"] = await ask(pybox)
    # ... or a running `pybox serve`:
    async with MCPServerStreamableHttp(params={"url": url,
            "headers": {"Authorization": "Bearer " + token}}, client_session_timeout_seconds=120) as pybox:
        outputs["streamable HTTP"] = await ask(pybox)

    failed = False
    for label, out in outputs.items():
        if expect in str(out):
            print(f"ok   {label}")
        else:
            print(f"FAIL {label}: {expect!r} not in final_output {out!r}")
            failed = True
    return 1 if failed else 0


sys.exit(asyncio.run(main()))
