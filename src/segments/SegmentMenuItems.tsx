import { Box } from '@mui/material';
import { MenuItemLink, useGetList } from 'react-admin';
import SegmentIcon from '@mui/icons-material/FilterAltOutlined';
import AtRiskIcon from '@mui/icons-material/TrendingDownOutlined';
import AddIcon from '@mui/icons-material/AddOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { BROADCASTS_PATH } from '../broadcasts/paths';
import { MAX_SEGMENTS } from '@contract/segmentRules';
import { useCan } from '../layout/useCan';
import type { SegmentRecord } from './segmentsData';
import { SEGMENTS_RESOURCE } from './segmentsData';
import { AT_RISK_PATH, SEGMENT_NEW_PATH, segmentPath } from './segmentPaths';

export const segmentCount = (segment: Pick<SegmentRecord, 'count' | 'count_is_estimate'>) =>
  `${segment.count_is_estimate ? '~' : ''}${segment.count.toLocaleString()}`;

/** A long name is cut short with an ellipsis; the count beside it never is. */
const NameAndCount = ({ segment }: { segment: SegmentRecord }) => (
  <Box component="span" sx={{ display: 'flex', minWidth: 0 }}>
    <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}>
      {segment.name}
    </Box>
    <Box component="span" data-count sx={{ flexShrink: 0, ml: 0.5 }}>
      ({segmentCount(segment)})
    </Box>
  </Box>
);

/**
 * The Clients group's segment entries (docs/features.md#segments): At risk, each saved segment with
 * its count, then New segment and Broadcasts for the roles that may use them.
 */
export const SegmentMenuItems = () => {
  const { data } = useGetList<SegmentRecord>(SEGMENTS_RESOURCE, { pagination: { page: 1, perPage: MAX_SEGMENTS }, sort: { field: 'name', order: 'ASC' } });
  const canCreate = useCan('segments', 'create');
  const canBroadcast = useCan('broadcasts', 'create');
  return (
    <>
      <MenuItemLink to={AT_RISK_PATH} primaryText="menu.at_risk" leftIcon={<AtRiskIcon />} role="link" />
      {(data ?? []).map((segment) => (
        <MenuItemLink
          key={segment.id}
          to={segmentPath(segment.id)}
          primaryText={<NameAndCount segment={segment} />}
          aria-label={`${segment.name} (${segmentCount(segment)})`}
          title={segment.name}
          leftIcon={<SegmentIcon />}
          role="link"
        />
      ))}
      {canCreate && <MenuItemLink to={SEGMENT_NEW_PATH} primaryText="menu.new_segment" leftIcon={<AddIcon />} role="link" />}
      {canBroadcast && <MenuItemLink to={BROADCASTS_PATH} primaryText="menu.broadcasts" leftIcon={<CampaignIcon />} role="link" />}
    </>
  );
};
