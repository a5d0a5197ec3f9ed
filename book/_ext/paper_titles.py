"""Proof-style directives (``prf:theorem``, ``prf:definition``, ...) titled as the papers number them.

The book's pages carry the papers' own numbers ("Theorem 1 of UIG: ..."), so the book never numbers
a theorem, definition or algorithm itself: every such directive is ``:nonumber:`` and its title
starts with its kind ("Definition: ..." for the book's own, "Lemma 3 of ADE20: ..." for a paper's).
sphinx-proof prints the kind again in front of an unnumbered title ("Theorem (Theorem 1 of UIG
...)"); here a title that already starts with its kind is printed as written.
``tests/test_chapter_format.py`` checks every directive of the book.
"""

from __future__ import annotations

from sphinx_proof.nodes import depart_unenumerable_node, unenumerable_node, visit_unenumerable_node


def depart_titled(self, node) -> None:
    realtype = node.attributes.get("realtype", "")
    title = node.attributes.get("title", "").strip()
    if realtype and title.lower().startswith(realtype.lower()):
        self.body.append("</div>")  # the title as written, without sphinx-proof's kind in front
        return
    depart_unenumerable_node(self, node)


def setup(app):
    app.setup_extension("sphinx_proof")
    app.add_node(unenumerable_node, override=True, html=(visit_unenumerable_node, depart_titled))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
