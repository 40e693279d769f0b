"""The error tree drawn in ``errors.py``'s docstring is the class tree, every class in it."""

from __future__ import annotations

import inspect
import re

from askalong import errors

BRANCH = re.compile(r"^(?P<indent>[ │]*)[├└]── (?P<name>\w+)")


def drawn_parents() -> dict[str, str]:
    """Each drawn class name -> the name drawn above it one level up."""
    doc = errors.__doc__ or ""
    parents: dict[str, str] = {}
    stack = ["AskAlongError"]
    for line in doc.splitlines():
        match = BRANCH.match(line.strip("\n")[4:])  # the drawing is indented four spaces
        if match is None:
            continue
        depth = len(match["indent"]) // 5 + 1  # "│    " per level
        del stack[depth:]
        parents[match["name"]] = stack[-1]
        stack.append(match["name"])
    return parents


def real_parents() -> dict[str, str]:
    classes = inspect.getmembers(errors, inspect.isclass)
    return {
        name: cls.__bases__[0].__name__
        for name, cls in classes
        if issubclass(cls, errors.AskAlongError) and cls is not errors.AskAlongError
    }


def test_the_drawn_tree_is_the_class_tree() -> None:
    assert drawn_parents() == real_parents()
