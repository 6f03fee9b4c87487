#!/usr/bin/env python3
"""Regenerates the bad-input corpus of tests/bad_inputs/ (run from this directory).

Every case is a small variation of gold.tsv; tests/bad_inputs.rs runs the binary on each as
listed in manifest.tsv. The files are committed; this script only documents how they were made.
"""
H = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\tNEL-LIT\tNEL-METO\tMISC"


def row(tok, c="O", link="_"):
    f = c if c == "O" else c + ".X"
    return "\t".join([tok, c, "O", f, "O", "O", "O", link, "_", "_"])


doc1 = [("Jean", "B-PERS", "Q1"), ("Dupont", "I-PERS", "Q1"), ("vit", "O", "_"), ("à", "O", "_"),
        ("Paris", "B-LOC", "Q90"), (".", "O", "_")]
doc2 = [("La", "O", "_"), ("Gazette", "B-ORG", "NIL"), ("de", "I-ORG", "NIL"), ("Lausanne", "I-ORG", "NIL"),
        ("parut", "O", "_"), ("hier", "O", "_")]


def fmt(docs, ids=("d1", "d2")):
    out = [H]
    for i, d in enumerate(docs):
        out.append(f"# hipe2022:document_id = {ids[i]}")
        out.append("# hipe2022:date = 1900-01-0%d" % (i + 1))
        out.extend(row(*t) for t in d)
    return "\n".join(out) + "\n"


def cells(text, f):
    """Applies f to the cell list of every token row (header included)."""
    out = []
    for l in text.split("\n"):
        if l.startswith("#") or not l:
            out.append(l)
        else:
            out.append("\t".join(f(l.split("\t"))))
    return "\n".join(out)


def one(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


gold = fmt([doc1, doc2])
lines = gold.split("\n")
cases = {
    "good_bundle1_newseye_fr_1.tsv": gold,
    "empty.tsv": "",
    "header_only.tsv": H + "\n",
    "comment_first.tsv": "# hipe2022:document_id = d1\n" + gold,
    "blank_first_line.tsv": "\n" + gold,
    "missing_column.tsv": cells(gold, lambda c: c[:1] + c[2:]),
    "lowercase_header.tsv": one(gold, "NE-COARSE-LIT", "ne-coarse-lit"),
    "trailing_space_header.tsv": one(gold, "NE-COARSE-LIT", "NE-COARSE-LIT "),
    "duplicate_column.tsv": one(gold, "\tMISC", "\tNE-COARSE-LIT"),
    "ragged_header.tsv": one(gold, "\tMISC\n", "\n"),
    "extra_cells.tsv": one(gold, "vit\tO", "vit\tO\tO"),
    "tab_in_token.tsv": one(gold, "Dupont\t", "Du\tpont\t"),
    "missing_cells.tsv": one(gold, "vit\tO\tO\tO\tO\tO\tO\t_\t_\t_", "vit\tO\tO\tO"),
    "crlf.tsv": gold.replace("\n", "\r\n"),
    "bom.tsv": "\ufeff" + gold,
    "cr_only.tsv": gold.replace("\n", "\r"),
    "hash_token.tsv": one(gold, "vit\t", "#vit\t"),
    "iobes.tsv": one(one(gold, "Dupont\tI-PERS", "Dupont\tE-PERS"), "Paris\tB-LOC", "Paris\tS-LOC"),
    "i_without_b.tsv": one(gold, "Paris\tB-LOC", "Paris\tI-LOC"),
    "bad_tag.tsv": one(gold, "Paris\tB-LOC", "Paris\tLOC"),
    "tag_with_space.tsv": one(gold, "Paris\tB-LOC", "Paris\tB-LOC "),
    "unknown_label.tsv": one(gold, "Paris\tB-LOC", "Paris\tB-ANIMAL"),
    "underscore_tag.tsv": one(gold, "vit\tO", "vit\t_"),
    "empty_column.tsv": cells(gold, lambda c: c if c[0] == "TOKEN" else c[:1] + ["_"] + c[2:]),
    "bad_link.tsv": one(gold, "\tQ90\t", "\thttp://www.wikidata.org/entity/Q90\t"),
    "empty_candidate.tsv": one(gold, "\tQ90\t", "\tQ90||Q91\t"),
    "duplicate_candidate.tsv": one(gold, "\tQ90\t", "\tQ90|Q90\t"),
    "split_link.tsv": one(gold, "Dupont\tI-PERS\tO\tI-PERS.X\tO\tO\tO\tQ1", "Dupont\tI-PERS\tO\tI-PERS.X\tO\tO\tO\t_"),
    "token_mismatch.tsv": one(gold, "Paris\t", "PARIS\t"),
    "fewer_tokens.tsv": one(gold, "hier\tO\tO\tO\tO\tO\tO\t_\t_\t_\n", ""),
    "truncated.tsv": gold[: gold.index("parut") + 3],
    "extra_document.tsv": gold + "# hipe2022:document_id = d3\nEncore\tO\tO\tO\tO\tO\tO\t_\t_\t_\n",
    "other_dataset.tsv": fmt([[("Το", "O", "_"), ("κείμενο", "O", "_")], [("άλλο", "B-LOC", "Q5")]]),
    "doc_id_mismatch.tsv": gold.replace("= d2", "= d7"),
    "empty_token_row.tsv": one(gold, "vit\t", "\t"),
    "bad_date.tsv": gold.replace("1900-01-02", "1900-13-45"),
    "no_documents.tsv": "\n".join(l for l in lines if not l.startswith("# hipe2022:document_id")),
    "team_bundle9_x.tsv": gold,
    "team_bundle1_ajmc_de_1.tsv": gold,
    "swapped_columns.tsv": cells(gold, lambda c: [c[1], c[0]] + c[2:]),
    "only_comments.tsv": H + "\n# hipe2022:document_id = d1\n# segment\n",
    "nul_bytes.tsv": one(gold, "vit", "v\0it"),
    "long_token.tsv": one(gold, "vit\t", "v" + "x" * 5000 + "it\t"),
    "spaces_not_tabs.tsv": gold.replace("\t", "    "),
}
for name, text in cases.items():
    with open(name, "w", encoding="utf-8", newline="") as f:
        f.write(text)
with open("gold.tsv", "w", encoding="utf-8", newline="") as f:
    f.write(gold)
with open("HIPE-2022-v2.1-newseye-test-fr.tsv", "w", encoding="utf-8", newline="") as f:
    f.write(gold)
raw = gold.encode()
with open("invalid_utf8.tsv", "wb") as f:
    f.write(raw[:200] + b"\xff\xfe" + raw[200:])
with open("latin1.tsv", "wb") as f:
    f.write(gold.encode("latin-1"))
with open("utf16.tsv", "wb") as f:
    f.write(gold.encode("utf-16"))
with open("tagset.txt", "w") as f:
    f.write("PERS\nLOC\nORG\nANIMAL\n")
