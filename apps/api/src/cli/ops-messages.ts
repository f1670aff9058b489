import pino from 'pino';
import { isUuid } from '@tipcard/shared/uuid';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createServices } from '../services.ts';

/**
 * `npm run ops:messages -- list [limit]` / `retry <id>… | --all`: the outbox's dead messages (an SMS or e-mail the
 * provider refused on every try, docs/operations.md "Find and retry a dead message"). `list` shows each one's id,
 * channel, masked recipient, age and last error, never its text; `retry` gives them a new round of tries, which the
 * worker's `messages.deliver` job makes. With the embedded database, stop the server first.
 */
const USAGE = 'Usage: npm run ops:messages -- list [limit] | retry <id>… | retry --all';
const [command, ...rest] = process.argv.slice(2);
const limit = Number(rest[0] ?? 50);
const valid =
  (command === 'list' && rest.length <= 1 && Number.isInteger(limit) && limit > 0 && limit <= 1000) ||
  (command === 'retry' && (rest.join(' ') === '--all' || (rest.length > 0 && rest.every(isUuid))));
if (!valid) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfigOrExit();
const database = await openDatabase(databaseOptions(config));
try {
  await database.migrate();
  const { messages } = createServices(config, database.db, pino({ level: 'warn' }));
  if (command === 'list') {
    const dead = await messages.listDead(limit);
    for (const message of dead) {
      console.log(
        [
          message.id,
          message.channel,
          message.recipient,
          `${message.attempts} tries`,
          message.createdAt.toISOString(),
          message.lastError ?? '',
        ].join('\t'),
      );
    }
    console.log(`${dead.length} dead message(s)${dead.length === limit ? ` (the oldest ${limit}; pass a larger limit)` : ''}`);
  } else {
    const asked = rest.join(' ') === '--all' ? 'all' : rest;
    const revived = await messages.retryDead(asked);
    console.log(`${revived.length} message(s) will be sent again by the worker: ${revived.join(' ') || '(none was dead)'}`);
    if (asked !== 'all') {
      const notDead = asked.filter((id) => !revived.includes(id));
      if (notDead.length > 0) console.log(`Not dead (already pending, sent or unknown), left alone: ${notDead.join(' ')}`);
    }
  }
} finally {
  await database.close();
}
process.exit(0);
