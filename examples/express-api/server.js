// Runs the example: ISSUER is the Gatehouse to trust; with RS_CLIENT_ID and RS_CLIENT_SECRET (a
// client added with --resource-server) every grant is also confirmed live by introspection.
import { start } from './app.js';

const introspection =
  process.env.RS_CLIENT_ID && process.env.RS_CLIENT_SECRET
    ? { clientId: process.env.RS_CLIENT_ID, clientSecret: process.env.RS_CLIENT_SECRET }
    : undefined;
const api = await start({
  port: Number(process.env.PORT ?? 4000),
  issuer: process.env.ISSUER ?? 'http://localhost:3000',
  introspection,
});
console.log(`Notes API listening at ${api.url}`);
