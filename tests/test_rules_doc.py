from kits import rules_doc


def test_rules_doc_lists_every_case_with_its_passage():
    assert rules_doc.current() == rules_doc.render().strip(), "run: python tests/kits/rules_doc.py --write"
