"""A task in the playground: the link a teacher makes (`pseudo site link ЗАДАЧА`), and the
check the page's «Проверить» runs in Pyodide.

The link packs what a pupil may see of the task (`tasks.for_pupils`: the statement and the
visible tests, never the hidden ones nor the solution) as JSON, encoded as the page encodes a
program (`#p=…`): UTF-8, then URL-safe base64 without padding, after `#task=`. The page never
sends it anywhere. The check is `pseudo test`'s own: the program compiled as `judge.Program`
compiles it, each test run by `judge.run_test` (its output compared by `tasks.difference` in
the task's mode) and told in `gradebook.test_lines`' words, under the task's limits and the
page's depth of recursion.
"""
from __future__ import annotations

import base64
import json

from ..tasks import Task, Test, for_pupils, read_task

KEY = "task"


def link(folder: str, site: str) -> str:
    """The address of the site `site` that opens the task in `folder` (TaskError if it is not one)."""
    data = json.dumps(for_pupils(read_task(folder)), ensure_ascii=False, separators=(",", ":"))
    packed = base64.urlsafe_b64encode(data.encode("utf-8")).decode("ascii").rstrip("=")
    return site.split("#")[0] + f"#{KEY}={packed}"


def unpack(packed: str) -> dict:
    """The pupil's data of a link's `task=` part (for the tests: the page decodes it itself)."""
    return json.loads(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)).decode("utf-8"))


class PageTask(Task):
    """The task of a link's data, as `pseudo test` holds one (its visible tests only), its runs
    as deep as the page's stack allows."""

    def __init__(self, data: dict, max_depth: int):
        tests = [Test(t["name"], t.get("input", ""), t["expected"]) for t in data["tests"]]
        super().__init__("", data.get("title", ""), data.get("statement", ""), tests, data.get("max_steps"),
                         float(data["time_limit"]), data.get("compare", "exact"), None)
        self.max_depth = max_depth

    def limits(self):
        limits = super().limits()
        limits.max_depth = self.max_depth
        return limits


def check(data: dict, path: str, max_depth: int, told) -> dict:
    """Run the program in `path` on the task's tests as `pseudo test` does; told(result) after
    each test, `result` being {test, status, lines} (the lines `pseudo test` prints of it).
    Gives {error} (the program did not compile: its message) or {passed, tests}, and
    {stopped: True} when a Stop ended the check at the test it stopped."""
    from ..gradebook import test_lines
    from ..judge import prepare, run_test
    from .browser import PAGE_MESSAGES, page_messages
    task = PageTask(data, max_depth)
    with page_messages():
        program, compiled = prepare(task, path, pupil=False)
        if program is None:
            return {"error": compiled["error"]}
        width = max(len(t.name) for t in task.tests)
        passed, errors = 0, {}  # an error's message → the first test it stopped, as pseudo test says it
        for test in task.tests:
            found = run_test(program, task, test)
            passed += found["status"] == "passed"
            first = errors.setdefault(found["message"], test.name) if found["status"] == "error" else test.name
            lines = test_lines(test, found, width, first if first != test.name else None)
            told({"test": test.name, "status": found["status"], "lines": lines})
            if found["detail"].startswith(PAGE_MESSAGES["interrupted"]):  # a Stop
                return {"passed": passed, "tests": len(task.tests), "stopped": True}
    return {"passed": passed, "tests": len(task.tests)}
