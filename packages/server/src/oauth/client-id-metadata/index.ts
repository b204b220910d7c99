/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): a URL client_id
 * resolved through the document it names, under the operator's policy (CLIENT_ID_METADATA_*).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export {
  ClientIdMetadataDocuments,
  type ClientIdMetadataPolicy,
  DEFAULT_CLIENT_ID_METADATA_POLICY,
  isClientIdMetadataUrl,
} from './client-id-metadata.js';
export { clientIdMetadataFromEnv } from './client-id-metadata-config.js';
