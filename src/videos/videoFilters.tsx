import { BooleanInput, NullableBooleanInput, ReferenceInput, SearchInput, SelectInput } from 'react-admin';
import { VIDEO_ACCESS_LEVELS } from '@contract/videos';

const levelChoices = VIDEO_ACCESS_LEVELS.map(({ id }) => ({ id, name: `videos.access_levels.${id}` }));

/** Filters of the Video Manager; every one runs on the server (contract AdminVideoFilter). */
export const videoFilters = (translate: (key: string) => string) => [
  // SearchInput shows its placeholder untranslated.
  <SearchInput key="q" source="q" alwaysOn placeholder={translate('videos.filters.search')} />,
  <ReferenceInput key="category_id" source="category_id" reference="video-categories" alwaysOn>
    <SelectInput optionText="name" label="videos.filters.category" />
  </ReferenceInput>,
  <SelectInput key="access_level_id" source="access_level_id" label="videos.filters.access_level" choices={levelChoices} alwaysOn />,
  <NullableBooleanInput
    key="enabled"
    source="enabled"
    label="videos.filters.enabled"
    trueLabel="videos.filters.enabled_choices.yes"
    falseLabel="videos.filters.enabled_choices.no"
    alwaysOn
  />,
  <BooleanInput key="missing" source="missing" label="videos.filters.missing" helperText={false} />,
  <BooleanInput key="never_played" source="never_played" label="videos.filters.never_played" helperText={false} />,
  <BooleanInput key="deleted" source="deleted" label="videos.filters.show_deleted" helperText={false} alwaysOn />,
];
