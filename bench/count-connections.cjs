/**
 * Preloaded into a benchmarked run's processes (NODE_OPTIONS=--require, bench/conformance.ts): counts
 * the TCP and TLS connections each opens (net.Socket connect: undici's, over TLS too) into a file of
 * its own, named by its pid, in the folder PCC_BENCH_CONNECTIONS names, rewritten at each connection
 * (a vitest worker may be ended before its exit handlers run). Measures; changes nothing.
 */
// CommonJS: preloaded with --require, synchronously, before any module of the process.
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const net = require('node:net');
const { join } = require('node:path');
const { writeFileSync } = require('node:fs');

const dir = process.env.PCC_BENCH_CONNECTIONS;
if (dir) {
  const file = join(dir, String(process.pid));
  let opened = 0;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function countedConnect(...args) {
    opened++;
    try {
      writeFileSync(file, String(opened));
    } catch {
      /* the bench reads what is there */
    }
    return connect.apply(this, args);
  };
}
