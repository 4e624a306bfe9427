import { main } from './main.js';

// `npm run assay`: the CLI straight from its TypeScript source (through tsx), whatever the build holds.
process.exitCode = await main(process.argv);
