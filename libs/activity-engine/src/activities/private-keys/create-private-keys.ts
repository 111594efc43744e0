/**
 * create_private_keys (V2) — standalone key pairs on any curve, sealed by the key vault, with the
 * requested addresses and tags.
 */
import { AddressFormatError, assertAddressFormat, encodeAddress, generateCurveKeyPair, newId, type TCurveName } from '@latchkey/crypto';
import { AppError, ZCreatePrivateKeysIntentSchema, type TCreatePrivateKeysIntent, type TCreatePrivateKeysResult, CREATE_PRIVATE_KEYS_ACTIVITY } from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';

/** The vault binding of a private key: its sealed bytes cannot be moved to another key. */
import { privateKeyAad } from '../../keys/vault-aad.js';

/**
 * Stores a private key (sealed by the vault) with the given addresses and tags: create_private_keys
 * and import_private_key share this. Returns the new id.
 * @throws AppError when the name is taken
 */
export async function storePrivateKey(
  ctx: TActivityContext,
  k: { name: string; curve: TCurveName; privateKey: Uint8Array; publicKey: Uint8Array; addresses: { format: string; address: string }[]; tagIds: string[]; imported: boolean },
): Promise<string> {
  const id = newId();
  try {
    await ctx.tx.privateKeys.create({
      id,
      organizationId: ctx.organizationId,
      name: k.name,
      curve: k.curve,
      publicKey: Buffer.from(k.publicKey).toString('hex'),
      sealedPrivateKey: ctx.vault.seal(k.privateKey, privateKeyAad(id)),
      imported: k.imported,
      addresses: k.addresses,
      tagIds: k.tagIds,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('BAD_REQUEST', `private key name must be unique: ${JSON.stringify(k.name)} already exists`, { field: 'privateKeyName' });
    throw e;
  }
  return id;
}

export const createPrivateKeys: TActivityDefinition<TCreatePrivateKeysIntent, TCreatePrivateKeysResult> = {
  ...CREATE_PRIVATE_KEYS_ACTIVITY,
  params: ZCreatePrivateKeysIntentSchema,
  validate(p) {
    const names = new Set<string>();
    p.privateKeys.forEach((k, i) => {
      if (names.has(k.privateKeyName)) throw new AppError('BAD_REQUEST', `privateKeys[${i}]: duplicate privateKeyName ${JSON.stringify(k.privateKeyName)}`);
      names.add(k.privateKeyName);
      for (const format of k.addressFormats) {
        try {
          assertAddressFormat(k.curve, format);
        } catch (e) {
          if (e instanceof AddressFormatError) throw new AppError('BAD_REQUEST', `privateKeys[${i}]: ${e.message}`, { field: `privateKeys.${i}.addressFormats`, allowedCurves: e.allowedCurves });
          throw e;
        }
      }
    });
  },
  async handle(ctx, p) {
    const tagIds = [...new Set(p.privateKeys.flatMap((k) => k.privateKeyTags))];
    const found = await ctx.tx.privateKeys.findTags(ctx.organizationId, tagIds);
    const missing = tagIds.filter((t) => !found.some((f) => f.id === t));
    if (missing.length) throw new AppError('NOT_FOUND', `private key tags not found: ${missing.join(', ')}`, { privateKeyTagIds: missing });
    const out: TCreatePrivateKeysResult['privateKeys'] = [];
    for (const k of p.privateKeys) {
      const pair = generateCurveKeyPair(k.curve);
      try {
        const addresses = [...new Set(k.addressFormats)].map((format) => ({ format, address: encodeAddress(k.curve, format, pair.publicKey) }));
        const id = await storePrivateKey(ctx, { name: k.privateKeyName, curve: k.curve, ...pair, addresses, tagIds: [...new Set(k.privateKeyTags)], imported: false });
        out.push({ privateKeyId: id, addresses });
      } finally {
        pair.privateKey.fill(0);
      }
    }
    return { privateKeys: out };
  },
};
