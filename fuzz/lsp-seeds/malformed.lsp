Content-Length: 65

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}Content-Length: 9

{not jsonContent-Length: 6

[1, 2]Content-Length: 56

{"jsonrpc": "2.0", "id": {"x": 1}, "method": "shutdown"}Content-Length: 84

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 42}}Content-Lenght: 2

{}