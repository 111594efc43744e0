/** `latchkey keygen`: a fresh P-256 API key pair, for the root user or `org create --api-public-key`. */
import { generateP256KeyPair } from '@latchkey/crypto';
import { defineCommand } from '../cli-command.js';

export const keygen = defineCommand<Record<string, never>>({
  name: 'keygen',
  summary: 'print a new P-256 API key pair as JSON',
  details: 'Prints {"publicKey": <compressed, hex>, "privateKey": <hex>}. Nothing is stored: keep the private key.',
  run: () => {
    const kp = generateP256KeyPair();
    return { publicKey: kp.publicKey, privateKey: kp.privateKey };
  },
});
