"""A read the ORM compiles once per process instead of at every request.

Compiling a queryset to SQL is pure Python and costs about as much as PostgreSQL takes to run
a small query: for the hand's game read (a dozen joined tables, the writer's role as a
subquery) it was the largest part of the request. ``CompiledRead`` builds the queryset once
with marker values in place of its arguments, keeps the SQL and the compiler, and for each
call runs the same SQL with the real values, turning rows into objects exactly as Django's
``ModelIterable`` does (its converters, ``from_db``, the related objects' populators, the
annotations). It leans on the compiler's attributes (``select``, ``klass_info``,
``annotation_col_map``) as Django 5.2 has them; tests/kaiser_club/test_compiled.py holds its
answers equal to the queryset's own, so a Django that changes them fails there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections, models
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=models.Model)

# A compiled read: how its rows become objects (the compiler's converters and populators),
# the SQL, its parameters, and which parameters are which argument.
Compiled = tuple["_Shape", str, tuple[Any, ...], list[tuple[int, int]]]

# Arguments are ids: markers within any integer column's range, each one different, found
# among the parameters only where an argument went.
_MARKERS = (1_987_654_321, 1_987_654_322, 1_987_654_323, 1_987_654_324)


class CompiledRead(Generic[M]):
    """``build(*ids)`` returns the queryset for those ids; ``first(*ids)`` its first object,
    ``all(*ids)`` all of its objects in its order.

    Every argument must reach the SQL as parameters, unchanged (a primary or foreign key
    compared with ``=``); a build where one does not is never cached and runs as a queryset.
    ``first`` cuts the queryset to its first row (no ORDER BY is added: filter it to one)."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], *, using: str = "default"):
        self.build = build
        self.using = using
        self._compiled: dict[tuple[str, bool], Any] = {}
        self._lock = threading.Lock()

    def first(self, *ids: int) -> M | None:
        compiled = self._compiled_for(len(ids), first=True)
        if compiled is None:
            found = list(self.build(*ids)[:1])
            return found[0] if found else None
        with connections[self.using].cursor() as cursor:
            cursor.execute(*self._statement(compiled, ids))
            rows = cursor.fetchmany(1)
        objects = compiled[0].objects(rows)
        return objects[0] if objects else None

    def all(self, *ids: int) -> list[M]:
        compiled = self._compiled_for(len(ids), first=False)
        if compiled is None:
            return list(self.build(*ids))
        with connections[self.using].cursor() as cursor:
            cursor.execute(*self._statement(compiled, ids))
            rows = cursor.fetchall()
        return compiled[0].objects(rows)

    @staticmethod
    def _statement(compiled: Compiled, ids: tuple[int, ...]) -> tuple[str, list[Any]]:
        _shape, sql, params, slots = compiled
        values = list(params)
        for slot, argument in slots:
            values[slot] = ids[argument]
        return sql, values

    def _compiled_for(self, count: int, *, first: bool) -> Compiled | None:
        key = (connections[self.using].vendor, first)
        if key not in self._compiled:
            with self._lock:
                if key not in self._compiled:
                    self._compiled[key] = self._compile(count, first=first)
        found: Compiled | None = self._compiled[key]
        return found

    def _compile(self, count: int, *, first: bool) -> Compiled | None:
        markers = _MARKERS[:count]
        queryset = self.build(*markers)
        if first:
            queryset = queryset[:1]
        compiler = queryset.query.get_compiler(using=self.using)
        try:
            sql, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet):
            return None  # the marker itself decided the WHERE: an argument is not a parameter
        slots = [
            (slot, argument)
            for argument, marker in enumerate(markers)
            for slot, param in enumerate(params)
            if param == marker
        ]
        if {argument for _, argument in slots} != set(range(count)):
            return None  # an argument did not reach the SQL as it was given: not cacheable
        if getattr(queryset, "_known_related_objects", None):
            return None
        return _Shape(compiler, self.using), sql, tuple(params), slots


class _Shape:
    """How ``ModelIterable`` turns this compiler's rows into objects: the converters, the
    columns of the model and the related objects' populators, found once per compiled read
    (Django finds them again for every queryset; none of them holds a row's state)."""

    def __init__(self, compiler: Any, db: str) -> None:
        select, klass_info = compiler.select, compiler.klass_info
        self.compiler = compiler
        self.db = db
        self.model_cls = klass_info["model"]
        select_fields = klass_info["select_fields"]
        self.start, self.end = select_fields[0], select_fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, db)  # type: ignore[call-arg]
        self.annotations = list((compiler.annotation_col_map or {}).items())
        fields = [s[0] for s in select[0 : compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        self.composite = compiler.has_composite_fields(fields)
        self.fields = fields

    def objects(self, rows: list[Any]) -> list[Any]:
        """The rows as objects, as ``django.db.models.query.ModelIterable`` makes them."""
        compiler = self.compiler
        found: Any = rows
        if self.converters:
            found = compiler.apply_converters(found, self.converters)
        if self.composite:
            found = compiler.composite_fields_to_tuples(found, self.fields)
        objects = []
        for row in found:
            obj = self.model_cls.from_db(self.db, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects
