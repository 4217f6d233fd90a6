import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { BroadcastOutcome } from '@contract/outcomes';
import { variantLetter, type WinnerMetric } from '@contract/outcomeRules';
import { percent } from '../common/outcomeWords';
import { winnerSentence } from './variantWords';

/** Each version's figures in the test part, the one that went to the rest, and why, in plain words. */
export const VariantResults = ({ outcome, metric }: { outcome: BroadcastOutcome; metric: WinnerMetric }) => {
  const translate = useTranslate();
  if (outcome.variants.length === 0) return null;
  const n = (value: number) => value.toLocaleString('en');
  const did = translate(`outcomes.did.${outcome.goal}`);
  const why = winnerSentence(outcome, metric, (m) => translate(`outcomes.versions.metrics.${m}`));
  const line = { display: 'block' } as const;
  return (
    <Box component="span" sx={{ ...line, mt: 0.5, overflowWrap: 'anywhere' }} data-testid="variant-results">
      {outcome.variants.map((version) => (
        <Typography key={version.index} variant="body2" component="span" sx={line} fontWeight={version.winner ? 600 : undefined}>
          {translate('outcomes.versions.line', {
            letter: variantLetter(version.index),
            title: version.title,
            sent: n(version.sent),
            opened: n(version.opened),
            open_rate: percent(version.open_rate),
            converted: n(version.converted),
            clients: n(version.clients),
            did,
            rate: percent(version.conversion_rate),
          })}
          {version.winner && ` · ${translate('outcomes.versions.winner_mark')}`}
        </Typography>
      ))}
      {why && (
        <Typography variant="body2" component="span" sx={line}>
          {translate(why.key, why.options)}
        </Typography>
      )}
    </Box>
  );
};
