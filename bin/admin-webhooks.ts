import { encryptClearSecrets } from '../shared/webhooks/endpoints';

/**
 * The admin CLI's commands of webhook endpoints: encrypting, once, the
 * signing secrets of endpoints registered before secrets were encrypted.
 */
interface Options {
  option(name: 'operator'): string;
}

export const webhookCommands = ({ option }: Options): Record<string, (target: string) => Promise<void>> => ({
  'encrypt-webhook-secrets': async (target) => {
    const { endpoints, encrypted } = await encryptClearSecrets(option('operator'));
    console.log(
      `Read ${endpoints} webhook endpoint(s) of ${option('operator')} in ${target}; encrypted ${encrypted} secret(s) kept in clear until now`,
    );
  },
});
