"""libcst's ``MetadataWrapper``, resolving providers without needless traversals.

libcst resolves providers in rounds and ends every round with one batched traversal
of the whole module for the batchable providers of that round, even when there are
none. Every provider here computes its data in one call (``_gen_impl``), so those
traversals visited a large module two or three times for nothing. ``Wrapper``
generates such providers directly, in dependency order, and leaves any batchable one
to libcst, whose batched traversal it runs with ``stages.traversal``'s walk.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Dict, Iterable, List, Mapping, Optional, Type

import libcst as cst
from libcst.metadata import BaseMetadataProvider, BatchableMetadataProvider, MetadataWrapper

from xdevlint.stages.traversal import hooks, walk

Provider = Type[BaseMetadataProvider[Any]]


class Wrapper(MetadataWrapper):
    """A ``MetadataWrapper`` over ``module`` itself (never a copy: rules report its nodes)."""

    def __init__(self, module: cst.Module, cache: Mapping[Provider, object]) -> None:
        super().__init__(module, unsafe_skip_copy=True, cache=cache)
        self._cache_for: Dict[Provider, object] = dict(cache)
        self._computed: Dict[Provider, Mapping[cst.CSTNode, object]] = {}

    def resolve(self, provider: Provider) -> Mapping[cst.CSTNode, Any]:
        return self.resolve_many([provider])[provider]

    def resolve_many(self, providers: Collection[Provider]) -> Mapping[Provider, Mapping[cst.CSTNode, object]]:
        order = _dependency_order(providers)
        if any(issubclass(p, BatchableMetadataProvider) for p in order if p not in self._computed):
            self._computed.update(super().resolve_many(order))  # libcst batches those
        for provider in order:
            if provider not in self._computed:
                made = provider(self._cache_for.get(provider)) if provider.gen_cache else provider()
                self._computed[provider] = made._gen(self)
        return {provider: self._computed[provider] for provider in providers}

    def visit_batched(
        self,
        visitors: Iterable[cst.BatchableCSTVisitor],
        before_visit: Optional[Callable[[cst.CSTNode], None]] = None,
        after_leave: Optional[Callable[[cst.CSTNode], None]] = None,
    ) -> cst.CSTNode:
        """libcst's, without rebuilding the module: the batchable providers only read it."""
        batch = list(visitors)
        found = hooks(batch) if before_visit is None and after_leave is None else None
        if found is None:
            return super().visit_batched(batch, before_visit, after_leave)
        walk(self, batch, found)
        return self.module


def _dependency_order(providers: Collection[Provider]) -> List[Provider]:
    """``providers`` and what they depend on, each after its dependencies."""
    order: List[Provider] = []

    def add(provider: Provider) -> None:
        if provider not in order:
            for dependency in provider.METADATA_DEPENDENCIES:
                add(dependency)
            order.append(provider)

    for provider in providers:
        add(provider)
    return order
