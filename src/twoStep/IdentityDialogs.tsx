import { Suspense, useEffect, useState } from 'react';
import { lazyChunk } from '../common/chunks';
import { identityChecks, type IdentityQuestion } from '../providers/identityCheck';

const ReauthDialog = lazyChunk(() => import('./ReauthDialog').then((module) => ({ default: module.ReauthDialog })));
const TwoStepDialog = lazyChunk(() => import('./TwoStepDialog').then((module) => ({ default: module.TwoStepDialog })));

/**
 * Mounted once in the layout: 'Confirm it is you' when a sensitive call asks for it, and the
 * two-step set-up when an owner requires it of this account. Their code loads when first needed.
 */
export const IdentityDialogs = () => {
  const [question, setQuestion] = useState<IdentityQuestion | null>(null);
  const [asked, setAsked] = useState(false);
  const [setupRequired, setSetupRequired] = useState(false);
  useEffect(
    () =>
      identityChecks.subscribe((next) => {
        setQuestion(next);
        if (next) setAsked(true);
      }),
    [],
  );
  useEffect(() => identityChecks.onSetupRequired(() => setSetupRequired(true)), []);
  return (
    <Suspense fallback={null}>
      {asked && <ReauthDialog question={question} />}
      {setupRequired && <TwoStepDialog open required onClose={() => undefined} />}
    </Suspense>
  );
};
