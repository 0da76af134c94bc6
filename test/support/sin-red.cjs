// Loaded with `node --require` (NODE_OPTIONS) into a tool the tests run, so that the tool
// reaches nothing outside this machine: every DNS lookup and every TCP connection it
// tries is written to the file DECA_SIN_RED names (one line each) and then refused. A test
// reads the file afterwards: an empty one shows the tool needed no network. Unix sockets
// and connections to the loopback address are let through (nothing leaves the machine).
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');

const registro = process.env.DECA_SIN_RED;
const anotar = (que) => {
  if (registro) fs.appendFileSync(registro, `${process.pid} ${que}\n`);
};
const local = (host) => host === undefined || host === 'localhost' || /^127\./.test(host) || host === '::1';
const negado = (que) => Object.assign(new Error(`Sin red en esta prueba: ${que}`), { code: 'ENETUNREACH' });

const conectar = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  // net.connect passes its normalised arguments as one array: [options, callback].
  const primero = Array.isArray(args[0]) ? args[0][0] : args[0];
  const o = typeof primero === 'object' && primero !== null ? primero : { port: primero, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (o.path === undefined && !local(o.host)) {
    const que = `connect ${o.host}:${o.port}`;
    anotar(que);
    process.nextTick(() => this.destroy(negado(que)));
    return this;
  }
  return conectar.apply(this, args);
};

const buscar = dns.lookup;
dns.lookup = function (host, ...resto) {
  if (local(host)) return buscar.call(this, host, ...resto);
  anotar(`lookup ${host}`);
  const cb = resto[resto.length - 1];
  if (typeof cb === 'function') process.nextTick(() => cb(negado(`lookup ${host}`)));
  return undefined;
};
const buscarPromesa = dns.promises.lookup;
dns.promises.lookup = function (host, ...resto) {
  if (local(host)) return buscarPromesa.call(this, host, ...resto);
  anotar(`lookup ${host}`);
  return Promise.reject(negado(`lookup ${host}`));
};
