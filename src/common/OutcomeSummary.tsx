import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { GoalKind } from '@contract/outcomeRules';
import { OUTCOME_GROUPS, liftSentence, percent, type OutcomeFigures, type OutcomeGroup } from './outcomeWords';

/**
 * A message's results in plain words (docs/automation.md#did-it-work-goals-holdouts-and-lift): what
 * went out, who reached the goal against the held-out clients, and the lift. With `clientsPath`, the
 * clients behind each number open as a client list.
 */
export const OutcomeSummary = ({
  figures,
  goal,
  windowDays,
  clientsPath,
}: {
  figures: OutcomeFigures;
  goal: GoalKind;
  windowDays: number;
  clientsPath?: (group: OutcomeGroup) => string;
}) => {
  const translate = useTranslate();
  const lift = liftSentence(figures.lift);
  const did = translate(`outcomes.did.${goal}`);
  const n = (value: number) => value.toLocaleString('en');
  const line = { display: 'block' } as const;
  const counts: Record<OutcomeGroup, number> = {
    clients: figures.clients,
    sent: figures.sent,
    opened: figures.opened,
    converted: figures.converted,
    held_out: figures.holdout.clients,
    held_out_converted: figures.holdout.converted,
  };
  return (
    <Box component="span" sx={{ ...line, overflowWrap: 'anywhere' }} data-testid="outcome-summary">
      <Typography variant="body2" component="span" sx={line}>
        {translate('outcomes.goal', { goal: translate(`outcomes.goals.${goal}`), smart_count: windowDays })}
      </Typography>
      <Typography variant="body2" component="span" sx={line}>
        {translate('outcomes.sent', { sent: n(figures.sent), delivered: n(figures.delivered), opened: n(figures.opened) })}
      </Typography>
      <Typography variant="body2" component="span" sx={line}>
        {translate('outcomes.converted', { did, converted: n(figures.converted), clients: n(figures.clients), rate: percent(figures.conversion_rate) })}
        {figures.holdout.clients > 0 &&
          ` · ${translate('outcomes.held_out', {
            converted: n(figures.holdout.converted),
            clients: n(figures.holdout.clients),
            rate: percent(figures.holdout.conversion_rate),
          })}`}
      </Typography>
      <Typography variant="body2" component="span" sx={line} color={figures.lift?.significant ? 'text.primary' : 'text.secondary'}>
        {translate(lift.key, { ...lift.options, did })}
      </Typography>
      {clientsPath && (
        <Typography variant="body2" component="span" sx={line}>
          {translate('outcomes.show_clients')}{' '}
          {OUTCOME_GROUPS.filter((group) => counts[group] > 0).map((group, index) => (
            <span key={group}>
              {index > 0 && ' · '}
              <Link component={RouterLink} to={clientsPath(group)}>
                {translate(`outcomes.groups.${group}`, { count: n(counts[group]) })}
              </Link>
            </span>
          ))}
        </Typography>
      )}
    </Box>
  );
};
