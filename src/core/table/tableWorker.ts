/**
 * Entry of the table worker (bundled alone as dist/tableWorker.js): one table per worker, so the
 * extension host's main thread never indexes, types, sorts, filters, searches or exports. Every
 * message from the host goes to WorkerTable; every answer goes back through parentPort.
 */
import { parentPort } from 'node:worker_threads';
import { WorkerTable } from './workerTable';

const port = parentPort;
if (!port) throw new Error('tableWorker.js runs as a worker thread (see remoteTable.ts), not on its own.');
const table = new WorkerTable((message) => port.postMessage(message));
port.on('message', (m: unknown) => table.receive(m));
