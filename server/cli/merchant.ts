import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { createMerchant, MerchantInputError } from '../merchants/create-merchant';
import { resetMerchantPassword } from '../merchants/reset-merchant-password';

const USAGE = `Usage:
  npm run merchant:create -- --email E --password P [--name N]
  npm run merchant:list
  npm run merchant:reset-password -- --email E --password P

Uses DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (joined if the server is running).`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help || !command || !['create', 'list', 'reset-password'].includes(command)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command !== 'list' && (!values.email || !values.password)) {
    console.error(`--email and --password are required\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config);
  try {
    if (command === 'create') {
      const m = await createMerchant(db.models, {
        email: values.email!,
        password: values.password!,
        name: values.name,
      });
      console.log(`created merchant ${m.email} (id ${m.id})`);
    } else if (command === 'reset-password') {
      const m = await resetMerchantPassword(db.models, { email: values.email!, password: values.password! });
      console.log(`password reset for ${m.email}; tokens issued before no longer work`);
    } else {
      const merchants = await db.models.Merchant.findAll({ order: [['createdAt', 'ASC']] });
      if (merchants.length === 0) console.log('no merchants yet');
      for (const m of merchants)
        console.log(`${m.id}  ${m.email}  ${m.fullName ?? ''}  ${m.createdAt.toISOString()}`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof MerchantInputError ||
      error instanceof ConfigError ||
      (error as Error)?.name === 'TypeError'
    )
      console.error(`error: ${(error as Error).message}`);
    else console.error('error:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
