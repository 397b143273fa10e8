#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How long a page takes to open in headless chromium, through DevTools.

Usage: open_time.py CHROMIUM FILE [FILE…]

For each file, a fresh headless chromium (driven over --remote-debugging-pipe)
loads it in a 1280 × 900 window, waits for its load event and for a frame
drawn after it (so the page is parsed, its script run, and laid out and
painted), and prints one line: the file, the CPU time the page's renderer
process spent from navigation to that frame (DevTools' ProcessTime), and the
wall time, in ms. CPU time is what a test should judge: on a machine whose
cores are shared the wall time measures the neighbours as much as the page.
Exit 0, or 1 when chromium fails or says something unexpected.
"""
import json
import os
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # chromium reads commands from fd 3 and writes replies to fd 4.
        def fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
             '--disable-background-networking', '--disable-component-update', '--disable-sync',
             '--hide-scrollbars', '--window-size=1280,900', '--remote-debugging-pipe',
             '--user-data-dir=' + profile, 'about:blank'],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b''
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            message['sessionId'] = session
        os.write(self.to_browser, json.dumps(message).encode() + b'\0')
        while True:
            reply = self.read()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError(method + ': ' + json.dumps(reply['error']))
                return reply.get('result', {})
            self.events.append(reply)

    def read(self):
        while b'\0' not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError('chromium closed its DevTools pipe')
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def wait_event(self, method, session):
        while True:
            for i, e in enumerate(self.events):
                if e.get('method') == method and e.get('sessionId') == session:
                    return self.events.pop(i)
            self.events.append(self.read())

    def close(self):
        try:
            self.send('Browser.close')
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def process_time(browser, session):
    metrics = browser.send('Performance.getMetrics', session=session)['metrics']
    return {m['name']: m['value'] for m in metrics}['ProcessTime']


def open_time(chromium, path):
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(chromium, profile)
        try:
            target = browser.send('Target.createTarget', {'url': 'about:blank'})['targetId']
            session = browser.send('Target.attachToTarget',
                                   {'targetId': target, 'flatten': True})['sessionId']
            browser.send('Page.enable', session=session)
            browser.send('Performance.enable', session=session)
            cpu = process_time(browser, session)
            start = time.monotonic()
            browser.send('Page.navigate', {'url': 'file://' + os.path.abspath(path)}, session=session)
            browser.wait_event('Page.loadEventFired', session)
            browser.send('Runtime.evaluate', {
                'expression': 'new Promise(function (r) { requestAnimationFrame(function () { setTimeout(r, 0); }); })',
                'awaitPromise': True}, session=session)
            wall = time.monotonic() - start
            cpu = process_time(browser, session) - cpu
            return cpu * 1000, wall * 1000
        finally:
            browser.close()


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        for path in sys.argv[2:]:
            cpu, wall = open_time(sys.argv[1], path)
            print('%s %d %d' % (path, cpu, wall))
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print('open_time: ' + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
