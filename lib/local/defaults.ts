/** Defaults of the one-machine setup (npm start, the admin CLI without --aws). */
export const LOCAL_TABLE_NAME = 'ota-usage-local';
export const LOCAL_DYNAMODB_PORT = 8000;
export const LOCAL_DATA_DIR = '.data/dynamodb';
export const LOCAL_HTTP_PORT = 3000;
/** DynamoDB Local accepts any credentials; these are the ones the one-machine setup uses. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
