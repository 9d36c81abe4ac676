// Which templates a scan refuses for their signature. `code` and `javascript` templates run commands or
// scripts of the template's author, so they run only when a trusted key signed them, or when the operator
// allows unsigned ones explicitly (`vigil scan --allow-unsigned-templates`, a team setting only its Owner
// changes). nuclei's -dut (`disableUnsigned`) refuses every template no trusted key signed.
import type { Template } from '../template/types.ts';
import { signersFor, type SignatureStatus, type TemplateSigners } from '../template/signature.ts';
import { hasProtocolBlock } from '../template/lazy-template.ts';

export interface SignaturePolicy {
  /** PEM certificates trusted besides ProjectDiscovery's template-signing certificate. */
  trustedCertificates?: string[];
  /** Run code and javascript templates even when no trusted key signed them. */
  allowUnsigned?: boolean;
  /** Refuse every template no trusted key signed (nuclei's -dut). */
  disableUnsigned?: boolean;
}

/**
 * True when the template has a code or javascript block (its own or one a flow calls). Read off the
 * metadata for a template loaded lazily: the signature is checked before the template is compiled.
 */
export function needsSignature(t: Template): boolean {
  return hasProtocolBlock(t, 'code') || hasProtocolBlock(t, 'javascript');
}

const checked = new WeakMap<Template, { signers: TemplateSigners; status: SignatureStatus }>();

/** The template's signature status under these signers (cached per template and signer set). */
export function signatureStatus(t: Template, signers: TemplateSigners): SignatureStatus {
  const hit = checked.get(t);
  if (hit && hit.signers === signers) return hit.status;
  const status = signers.verify(t.source ?? t.raw);
  checked.set(t, { signers, status });
  return status;
}

/** Why the policy refuses the template, or undefined when it may run. Reasons read after "it ". */
export function signatureRefusal(t: Template, policy: SignaturePolicy): string | undefined {
  const strict = Boolean(policy.disableUnsigned);
  const gated = needsSignature(t) && !policy.allowUnsigned;
  if (!strict && !gated) return undefined;
  const status = signatureStatus(t, signersFor(policy.trustedCertificates));
  if (status.state === 'verified') return undefined;
  const unsigned = status.state === 'unsigned';
  if (gated) {
    const kind = hasProtocolBlock(t, 'code') ? 'code' : 'javascript';
    return unsigned
      ? `is a ${kind} template not signed by a trusted key`
      : `is a ${kind} template whose signature no trusted key verifies`;
  }
  return unsigned
    ? 'is not signed by a trusted key (unsigned templates are disabled)'
    : 'has a signature no trusted key verifies (unsigned templates are disabled)';
}
