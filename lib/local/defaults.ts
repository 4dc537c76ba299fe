/** Defaults of the one-machine setup (npm start, the admin CLI without --aws). */
export const LOCAL_TABLE_NAME = 'ota-usage-local';
export const LOCAL_DYNAMODB_PORT = 8000;
export const LOCAL_DATA_DIR = '.data/dynamodb';
export const LOCAL_HTTP_PORT = 3000;
/** The local host listens on the loopback interface only, unless HOST says otherwise. */
export const LOCAL_HTTP_HOST = '127.0.0.1';
/**
 * DynamoDB Local accepts any credentials; these are the ones the one-machine
 * setup uses, and the only ones the local event bus accepts on PutEvents.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** The account and region in the ARNs and events of the one-machine setup. */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = process.env.AWS_REGION || 'local';
