"""The one door to networkx: minimum-cost perfect matching on integer costs.

networkx ships no type hints, so it is wrapped here in a small typed function. Nodes are
0 … n-1 and edges are added in sorted order: networkx's result depends only on insertion
order, so the same input always gives the same matching.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx  # type: ignore[import-untyped]


def largest_matching(nodes: int, edges: Iterable[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """A matching with as many pairs as possible and, among those, the least total cost.

    ``edges``: (i, j, cost) with integer costs. Returns pairs (i, j), i < j, sorted.
    """
    costs: dict[tuple[int, int], int] = {}
    for i, j, cost in edges:
        if i == j:
            raise ValueError(f"node {i} cannot be matched with itself")
        key = (min(i, j), max(i, j))
        costs[key] = min(cost, costs.get(key, cost))
    big = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    for (i, j), cost in sorted(costs.items()):
        graph.add_edge(i, j, weight=big - cost)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(i, j), max(i, j)) for i, j in matching)


def perfect_matching(
    nodes: int, edges: Iterable[tuple[int, int, int]]
) -> list[tuple[int, int]] | None:
    """The least-cost matching that pairs every node, or None when there is none."""
    pairs = largest_matching(nodes, edges)
    return pairs if 2 * len(pairs) == nodes else None
