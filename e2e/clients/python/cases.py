"""What a case is, shared by the Python clients' case modules."""


class Case:
    def __init__(self, name, run, skip=None):
        self.name = name
        self.run = run
        self.skip = skip


def case(cases, name, skip=None):
    """Decorator: registers the function as a case of `cases`."""

    def register(run):
        cases.append(Case(name, run, skip))
        return run

    return register


def expect(condition, message):
    if not condition:
        raise AssertionError(message)
