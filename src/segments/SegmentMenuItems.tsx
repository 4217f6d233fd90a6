import { MenuItemLink, useGetList } from 'react-admin';
import SegmentIcon from '@mui/icons-material/FilterAltOutlined';
import AtRiskIcon from '@mui/icons-material/TrendingDownOutlined';
import AddIcon from '@mui/icons-material/AddOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { BROADCASTS_PATH } from '../broadcasts/paths';
import { MAX_SEGMENTS } from '@contract/segmentRules';
import type { SegmentRecord } from './segmentsData';
import { SEGMENTS_RESOURCE } from './segmentsData';
import { AT_RISK_PATH, SEGMENT_NEW_PATH, segmentPath } from './segmentPaths';

/** The Clients group's segment entries (docs/features.md#segments): At risk, each saved segment with its count, New segment, Broadcasts. */
export const SegmentMenuItems = () => {
  const { data } = useGetList<SegmentRecord>(SEGMENTS_RESOURCE, { pagination: { page: 1, perPage: MAX_SEGMENTS }, sort: { field: 'name', order: 'ASC' } });
  const countOf = (segment: SegmentRecord) => `${segment.count_is_estimate ? '~' : ''}${segment.count.toLocaleString()}`;
  return (
    <>
      <MenuItemLink to={AT_RISK_PATH} primaryText="menu.at_risk" leftIcon={<AtRiskIcon />} role="link" />
      {(data ?? []).map((segment) => (
        <MenuItemLink
          key={segment.id}
          to={segmentPath(segment.id)}
          primaryText={`${segment.name} (${countOf(segment)})`}
          leftIcon={<SegmentIcon />}
          role="link"
        />
      ))}
      <MenuItemLink to={SEGMENT_NEW_PATH} primaryText="menu.new_segment" leftIcon={<AddIcon />} role="link" />
      <MenuItemLink to={BROADCASTS_PATH} primaryText="menu.broadcasts" leftIcon={<CampaignIcon />} role="link" />
    </>
  );
};
