// npm pack's prepack step: the server reads the REST API's document at run time (src/config.ts), and
// an installed package has no repository root to find it in, so the tarball carries a copy of the
// repository's openapi.yaml (the one document; this copy is not committed).
import { copyFileSync } from 'node:fs';

copyFileSync(new URL('../../../openapi.yaml', import.meta.url), new URL('../openapi.yaml', import.meta.url));
