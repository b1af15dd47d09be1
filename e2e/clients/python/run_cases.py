"""Runs one Python client's conformance cases against one server (e2e/clients/python-clients.spec.ts).

    python run_cases.py <cases module> --list
    python run_cases.py <cases module> --base-url URL --api-key KEY

The fixtures (prompts, triggers, expected counts) come as JSON in GENSTUDIO_CLIENT_FIXTURES,
from e2e/clients/fixtures.ts, so both languages send the same things. Prints one JSON line per
case: {"name", "status": "passed" | "failed" | "skipped", "detail"}.
"""

import argparse
import importlib
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Target:
    def __init__(self, base_url, api_key, fixtures):
        self.base_url = base_url
        self.api_key = api_key
        self.fixtures = fixtures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--base-url")
    parser.add_argument("--api-key")
    arguments = parser.parse_args()
    module = importlib.import_module(arguments.module)
    unavailable = module.unavailable()
    if arguments.list:
        for case in module.CASES:
            print(json.dumps({"name": case.name, "skip": unavailable or case.skip}))
        return
    target = Target(
        arguments.base_url,
        arguments.api_key,
        json.loads(os.environ["GENSTUDIO_CLIENT_FIXTURES"]),
    )
    for case in module.CASES:
        if unavailable or case.skip:
            result = {"status": "skipped", "detail": unavailable or case.skip}
        else:
            try:
                case.run(target)
                result = {"status": "passed", "detail": ""}
            except Exception:  # Every failure is reported as the case's, with its trace.
                result = {"status": "failed", "detail": traceback.format_exc()}
        print(json.dumps({"name": case.name, **result}), flush=True)


if __name__ == "__main__":
    main()
