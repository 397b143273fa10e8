Content-Length: 119

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}Content-Length: 57

{"jsonrpc": "2.0", "method": "initialized", "params": {}}Content-Length: 285

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "untitled:Untitled-1", "languageId": "yaml", "version": 1, "text": "apiVersion: capops.dev/v1\nkind: CapacityPlan\nmetadata: {name: x, owner: y}\ndemands: [{id: d, slice: inference, gpus: 4}]\n"}}}Content-Length: 64

{"jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": {}}Content-Length: 50

{"jsonrpc": "2.0", "method": "exit", "params": {}}