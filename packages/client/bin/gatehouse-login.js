#!/usr/bin/env node
// The `gatehouse-login` command. A committed file, so that npm can link it at install time, before
// the `prepare` step has built dist/.
import '../dist/cli/main.js';
