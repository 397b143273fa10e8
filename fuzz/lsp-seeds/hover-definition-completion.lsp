Content-Length: 65

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}Content-Length: 57

{"jsonrpc": "2.0", "method": "initialized", "params": {}}Content-Length: 387

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml", "languageId": "yaml", "version": 1, "text": "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n  - id: train\n    slice: training\n    gpus: 8\nallocations:\n  - {id: a1, demand: train, pool: p1, gpus: 8, evidence: [r1]}\n  - id: a2\n    pool: \n    acc\n"}}}Content-Length: 307

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///capops-fuzz/inventory.yaml", "languageId": "yaml", "version": 1, "text": "apiVersion: capops.dev/v1\nkind: Inventory\npools:\n  - {id: p1, accelerator: h100-80, hosts: 1, gpus_per_host: 8, role: research}\n"}}}Content-Length: 368

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///capops-fuzz/seed.cpl", "languageId": "cpl", "version": 1, "text": "package seed\n\n/// A seed rule.\n@id(\"SEED-001\") @severity(error)\nrule seed {\n  for a in plan.allocations\n  where a.gpus > limit\n  deny at a.gpus \"{a.id} is over\"\n}\n\nparam limit: int = 4\n"}}}Content-Length: 171

{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 7, "character": 37}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 7, "character": 37}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 9, "character": 10}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 5, "method": "textDocument/completion", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 10, "character": 7}}}Content-Length: 170

{"jsonrpc": "2.0", "id": 6, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 4, "character": 4}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///capops-fuzz/inventory.yaml"}, "position": {"line": 3, "character": 10}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 8, "method": "textDocument/completion", "params": {"textDocument": {"uri": "file:///capops-fuzz/plan.yaml"}, "position": {"line": 99, "character": 0}}}Content-Length: 169

{"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///capops-fuzz/seed.cpl"}, "position": {"line": 4, "character": 7}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 10, "method": "textDocument/definition", "params": {"textDocument": {"uri": "file:///capops-fuzz/seed.cpl"}, "position": {"line": 6, "character": 19}}}Content-Length: 171

{"jsonrpc": "2.0", "id": 11, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///capops-fuzz/seed.cpl"}, "position": {"line": 6, "character": 12}}}Content-Length: 66

{"jsonrpc": "2.0", "id": 12, "method": "shutdown", "params": null}Content-Length: 52

{"jsonrpc": "2.0", "method": "exit", "params": null}