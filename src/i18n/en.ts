/**
 * Every user-visible text of the console, in one place. Texts quoted by the spec are
 * copied verbatim, spelling included ('Vewied On', 'Extended Absense', 'occured'):
 * do not "fix" them. Screens that are not built yet already have their keys, so
 * later work only references keys. Texts marked "ours" are not given by the spec.
 */
export const en = {
  app: {
    title: 'Studio Console',
    subtitle: 'Management Console',
    document_title: '%{page} · Studio Console',
    user: { menu: 'User menu', logout: 'Log out', sessions: 'My sessions' }, // 'User menu' and 'My sessions' are ours
    notification: { close: 'Close' }, // ours
  },
  menu: {
    dashboard: 'Dashboard',
    messaging: 'Messaging',
    // The six Messaging entries use messaging.types.*: one label names the entry and titles its page.
    video_manager: 'Video Manager',
    sync_vimeo: 'Sync Vimeo videos',
    clients: 'Clients',
    all_clients: 'All Clients',
    new_clients: 'New Clients',
    active_clients: 'Active Clients',
    audit: 'Audit Log', // ours (issue 11)
  },
  dashboard: {
    title: 'Dashboard',
    loading: 'Loading', // ours: spinner label
    cards: {
      subscribers: { label: 'Total VOD Subscribers', placeholder: '71,887', link: 'Open the client list' }, // links are ours
      daily_plays: { label: 'Avg. Video Plays (Daily)', placeholder: '150', link: 'Open the Video Manager' },
      most_popular: { label: 'Most Popular Category', placeholder: 'Warm-up', link: 'Open the Video Manager' },
    },
    // ours from here on: beyond the spec's three cards
    last_updated: 'Last updated %{time}',
    not_available: 'Some figures are not available yet: %{reasons}',
    trends: {
      unavailable: 'The trend could not be loaded.',
      daily_plays: {
        title: 'Daily video plays, last 30 days',
        summary: '%{total} plays over the 30 days from %{from} to %{to}, %{average} a day on average; the busiest day was %{peakDay} with %{peak}.',
        average: 'Average %{value}',
        day: 'Day',
        plays: 'Plays',
      },
      subscribers: {
        title: 'Paid subscribers, last 12 weeks',
        summary: '%{first} paid subscribers on %{from}, %{last} now.',
        week: 'Week of',
        subscribers: 'Paid subscribers',
      },
    },
  },
  videos: {
    title: 'Video Manager',
    columns: {
      thumbnail: 'Video Thumbnail',
      title: 'Video Title',
      enabled: 'Enabled',
      access_level: 'Access Level',
      actions: 'Actions',
    },
    access_levels: { 1: 'VOD | FREE', 2: 'VOD | BASIC', 3: 'VOD | PREMIUM' },
    actions: {
      delete: 'Delete', // ours: icon button label
      edit: 'Edit', // ours: icon button label
      restore: 'Restore', // ours
    },
    sync: {
      button: 'Sync Vimeo videos',
      started: 'Vimeo sync has started!',
      failed: 'Vimeo sync failed to start.',
      already_running: 'A Vimeo sync is already running.', // ours
    },
    // ours from here on: saving, filters, editing and sync progress are beyond the spec
    empty: 'No videos match these filters.',
    filters: {
      search: 'Search titles',
      category: 'Category',
      access_level: 'Access Level',
      enabled: 'Enabled',
      enabled_choices: { yes: 'Enabled', no: 'Disabled' },
      show_deleted: 'Show deleted',
      missing: 'Gone from Vimeo',
    },
    flags: {
      gone: 'Gone from Vimeo',
      gone_hint: 'The last complete Vimeo sync did not find this video (since %{date}).',
    },
    aria: { enabled: 'Enabled: %{title}', access_level: 'Access Level: %{title}' },
    notify: {
      enabled: 'Video enabled',
      disabled: 'Video disabled',
      level_saved: 'Access level set to %{level}',
      save_failed: 'Could not save "%{title}" (%{error}); it is back as it was.',
      deleted: 'Video deleted',
      delete_failed: 'Could not delete the video (%{error}).',
      restored: 'Video restored',
      restore_failed: 'Could not restore the video (%{error}).',
      saved: 'Video saved',
    },
    delete_dialog: {
      title: 'Delete "%{title}"?',
      content: 'It disappears from the app and from favorites options. "Show deleted" brings it back.',
    },
    edit: {
      title: 'Edit video',
      back: 'Back to Video Manager',
      fields: {
        title: 'Title',
        instructor: 'Instructor',
        category: 'Category',
        access_level: 'Access Level',
        enabled: 'Enabled',
      },
      no_category: 'No category',
      title_required: 'A video needs a title.',
      access_level_required: 'Choose an access level.',
      too_long: 'At most %{max} characters.',
      title_edited: 'Edited here: Vimeo syncs keep this title.',
      vimeo: {
        heading: 'From Vimeo',
        id: 'Vimeo id',
        length: 'Length',
        tags: 'Tags',
        none: 'none',
        minutes: '%{minutes} min',
      },
    },
    sync_status: {
      label: 'Vimeo sync',
      never: 'Vimeo has not been synced yet.',
      queued: 'Vimeo sync queued…',
      running: 'Vimeo sync running: %{page} of %{pages} pages read · %{seen} videos · %{added} added · %{updated} updated',
      running_open: 'Vimeo sync running: page %{page} read · %{seen} videos · %{added} added · %{updated} updated',
      done: 'Last Vimeo sync finished %{date}: %{seen} videos · %{added} added · %{updated} updated · %{missing} newly gone from Vimeo',
      failed: 'Vimeo sync failed %{date}: %{reason}',
      last_done: 'Last completed sync: %{date}.',
      sandbox: 'Sandbox',
      sandbox_hint: 'No VIMEO_ACCESS_TOKEN is set, so syncs read a fake sandbox catalogue.',
    },
  },
  messaging: {
    title: 'Push Messaging - %{type}',
    types: {
      high_five: 'High Five',
      missed_class: 'Missed Class',
      notetoself: '#notetoself',
      monday_morning: 'Monday Morning',
      cancelled_class: 'Cancelled Class',
      extended_absense: 'Extended Absense',
    },
    columns: { title: 'Title', message: 'Message', enabled: 'Enabled' },
    actions: { save_settings: 'Save Settings', add: 'Add new message' },
    empty: 'No messages have been stored.',
    add_modal: {
      title: 'Add new message', // ours: the spec names the button, not the modal
      fields: { title: 'Title', message: 'Message', enabled: 'Enable message?' },
      message_required: '* Message Required',
      save: 'Save',
      cancel: 'Cancel',
    },
    notify: {
      saved: 'New message saved',
      save_error: 'An error occured while saving the message',
      settings_saved: 'Message saved |||| %{smart_count} messages saved', // ours
      // ours: failed rows stay marked in the table, so nothing typed is lost
      rows_not_saved: 'Not saved: %{rows}. Your edit is kept; fix it and save again. |||| Not saved: %{rows}. Your edits are kept; fix them and save again.',
    },
    // ours, from here to the end of messaging
    table_label: 'Message templates',
    loading: 'Loading messages',
    load_failed: 'The messages could not be loaded. Reload the page to try again.',
    row: {
      unsaved: 'Changed, not saved yet',
      not_saved: 'Not saved: %{reason}',
    },
    placeholders: {
      hint: 'Placeholders filled for each client: %{placeholders}',
      preview: 'Preview for %{name}:',
      unknown: 'Nothing fills %{placeholders}: check the spelling.',
    },
    leave_unsaved: 'Some message edits are not saved yet. Leave this page and lose them?',
    // ours: automated sending (issue 12)
    automation: {
      title: 'Automated sending',
      loading: 'Loading the automated sending settings',
      load_failed: 'The automated sending settings could not be loaded. Reload the page to try again.',
      active: 'Send automatically',
      status: {
        paused: 'Paused: nothing of this type goes out by itself.',
        next_run: 'Next run %{date} (%{zone}).',
        running: 'On: sent as events happen (%{zone}).',
      },
      trigger: {
        1: 'Sent after a class the client signed in to.',
        2: 'Sent the morning after a class the client missed.',
        3: 'Sent once a week to clients with a class or a stream in the last days set below.',
        4: 'Sent every Monday to clients with the app.',
        5: 'Sent after a late cancellation.',
        6: 'Sent once per absence to clients with no class and no stream for the days set below.',
      },
      fields: {
        delay_minutes: 'Delay (minutes)',
        send_time: 'Send at',
        weekday: 'Day',
        active_days: 'Active in the last (days)',
        absence_days: 'Absent for (days)',
        milestones: 'Milestone classes',
        quiet_start: 'Quiet hours from',
        quiet_end: 'Quiet hours until',
        daily_cap: 'Automated pushes per client per day',
        device_token: 'Your device token',
      },
      help: {
        milestones: 'Comma-separated class numbers; enabled templates with {class_count} are used for them.',
        shared: 'Quiet hours and the daily limit apply to all six message types; pushes due in quiet hours wait until they end.',
        device_token: "The FCM token of your own phone, from the app's debug information; 'Send test to me' goes there.",
        milestones_invalid: 'Enter whole class numbers separated by commas, e.g. 10, 50, 100.',
      },
      weekdays: { 0: 'Sunday', 1: 'Monday', 2: 'Tuesday', 3: 'Wednesday', 4: 'Thursday', 5: 'Friday', 6: 'Saturday' },
      actions: {
        save: 'Save sending settings',
        preview: 'Preview',
        refresh_preview: 'Refresh preview',
        send_test: 'Send test to me',
        save_token: 'Save token',
      },
      notify: {
        saved: 'Sending settings saved',
        save_failed: 'The sending settings were not saved: %{reason}',
        token_saved: 'Device token saved',
        test_sent: 'Test sent to your device: "%{title}"',
        test_failed: 'The test was not delivered: %{reason}',
      },
      preview: {
        title: 'Preview of the next run',
        loading: 'Working out who would receive it',
        failed: 'The preview could not be worked out. Try again.',
        weekly: '%{smart_count} client would receive it on %{date}. |||| %{smart_count} clients would receive it on %{date}.',
        events: '%{smart_count} client would receive it by %{date}. |||| %{smart_count} clients would receive it by %{date}.',
        blocked: {
          paused: 'Automatic sending of this type is off, so nobody would receive it.',
          no_template: 'No template of this type is enabled, so nobody would receive it.',
        },
        columns: { client: 'Client', due: 'Due', text: 'Text they would read' },
        sample: 'A sample of them:',
      },
      counts: {
        title: 'Last 30 days',
        loading: 'Loading the counts',
        failed: 'The counts could not be loaded.',
        columns: { template: 'Template', sent: 'Sent', failed: 'Failed', skipped: 'Skipped' },
        without_template: 'Before a template was chosen',
        total: 'All templates',
        pending: '%{smart_count} push waiting (due later, in quiet hours or retrying). |||| %{smart_count} pushes waiting (due later, in quiet hours or retrying).',
        none: 'none',
      },
      skip_reasons: {
        opted_out: 'opted out',
        no_token: 'no device token',
        daily_cap: 'daily limit reached',
        no_template: 'no enabled template',
        paused: 'type paused',
        expired: 'too late to send',
        unknown: 'other',
      },
    },
  },
  clients: {
    titles: {
      all: 'Clients - All',
      mindbody: 'Clients - MindBody',
      active: 'Clients - Active',
      new: 'Clients - New',
    },
    columns: {
      new: 'New',
      first_name: 'First Name',
      last_name: 'Last Name',
      email: 'Email',
      vod_access_level: 'VOD ACCESS LEVEL',
      status: 'Status',
    },
    new_badge: 'New',
    status_pending: 'Pending',
    empty: 'No Clients to Show',
    loading: 'Loading clients', // ours: spinner label
    quick_filter: 'Search by name or e-mail', // ours
    // ours: large lists count exactly up to 10,000 and estimate beyond
    range_estimate: '%{from}-%{to} of about %{total}',
  },
  client: {
    title: 'Client Details',
    unknown: 'UNKNOWN',
    not_available: 'N/A',
    actions: {
      back: 'Back',
      push: 'Send a push notification to client',
      update_level: 'Update VOD Access Level',
      logout: 'Log Out',
    },
    fields: {
      first_name: 'First Name',
      last_name: 'Last Name',
      mb_client_id: 'MindBody ID',
      email: 'Email',
      vod_access_level: 'VOD Access Level',
    },
    override_note: 'Admin granted this Access Level until %{date}',
    results: { saved: 'Saved', sent: 'Sent', error: 'Error' },
    loading: 'Loading', // ours: spinner label
    sections: {
      view: 'View', // the spec gives exact toggle texts for contracts only
      hide: 'Hide',
      toggle: '%{action} %{section}', // ours: the toggle's accessible name, e.g. 'View Purchase History'
      // ours (issue 11): this client's entries of the audit log
      history: {
        title: 'History',
        empty: 'No staff actions recorded for this client yet.',
        columns: { at: 'When', staff: 'Staff member', action: 'Action', changes: 'Changes' },
      },
      contracts: {
        title: 'MindBody Contracts',
        view: 'View Contracts',
        hide: 'Hide Contracts',
        sync: 'Sync Contracts',
        sync_complete: 'Sync Complete',
        sync_failed: 'Sync Failed',
        columns: {
          status: 'Status',
          name: 'Contract Name',
          date: 'Contract Date',
          termination: 'Termination Date',
          autopay: 'Upcoming AutoPay Dates',
        },
        date_range: '%{start} - %{end}',
        autopay_entry: '$%{amount} on %{date}',
        empty: 'No contracts were found.',
      },
      // ours: automated messages (issue 12)
      // Every automated message of the client, also the skipped and waiting ones; the delivered ones are in
      // 'Recent Push Notifications' too, with the devices' answers.
      automated_messages: {
        title: 'Automated Messages',
        empty: 'No automated messages yet.',
        opted_out: 'Opted out of automated messages',
        opt_out_failed: 'The change was not saved: %{reason}',
        columns: { type: 'Type', status: 'Status', text: 'Message', when: 'When' },
        status: { pending: 'Waiting', sending: 'Sending', sent: 'Sent', skipped: 'Skipped: %{reason}', failed: 'Failed: %{reason}' },
      },
      recent_videos: {
        title: 'Recent Streamed Videos',
        columns: { title: 'Video Title', viewed_on: 'Vewied On' },
        empty: 'No videos were found.',
        // ours: the spec has joke lines here without giving their text
        jokes: {
          1: 'The couch is winning this round.',
          2: 'Maybe they prefer the studio floor to the sofa.',
          3: 'First video, first step: press play!',
        },
      },
      favorites: {
        title: 'Favorites Videos',
        columns: {
          remove: 'Remove',
          title: 'Video Title',
          instructor: 'Instructor',
          length: 'Length',
        },
        remove: 'Remove',
        add: 'Add a Video',
        empty: 'No records were found.',
        under_a_minute: '< 1 MINUTE(S)',
        minutes: '%{count} MINUTE(S)', // ours: the spec says whole minutes
        remove_error: 'Error removing favorites video',
      },
      // ours: the issue asks for the client's recent pushes on this page
      pushes: {
        title: 'Recent Push Notifications',
        columns: { sent_at: 'Sent At', title: 'Title', body: 'Message', sent_by: 'Sent By', result: 'Result' },
        status: { sending: 'Sending', sent: 'Sent', failed: 'Failed', no_token: 'No device' },
        devices: '%{sent} of %{count} device(s)',
        empty: 'No push notifications were sent to this client.',
        automated: 'Automated · %{type}', // ours (issue 12)
      },
      purchases: {
        title: 'Purchase History',
        columns: {
          revenue_cat_user_id: 'Revenue Cat User Id',
          access_level: 'Access Level Purchased',
          subscription_identifier: 'Subscription Identifier',
          upsell_source: 'Upsell Source',
          purchased_at: 'Purchased At',
          expires_at: 'Expires At',
          status: 'Status',
        },
        empty: 'No purchases were found.',
      },
      debug: {
        title: 'User Debug Info',
        empty: 'No debug info was found.',
        // ours: the spec lists these fields without giving their labels
        groups: { local: 'Local fields', device: 'Device info', app: 'App' },
        fields: {
          email: 'Email',
          mb_client_id: 'MB Client ID',
          app_access_level: 'Access Level',
          firebase_token_new: 'Firebase Token (new)',
          firebase_token_current: 'Firebase Token (current)',
          platform: 'Platform',
          platform_version: 'Platform Version',
          is_ipad: 'iPad',
          screen_size: 'Screen Size',
          device_size: 'Device Size',
          ip: 'IP',
          app_version: 'App Version',
          sent_at: 'Sent At',
          device_constants: 'Device Constants',
          network_info: 'Network Info',
        },
      },
    },
    favorites_modal: {
      title: "Add a video to client's favorites list",
      video: 'Video', // ours
      option_coach: ' - COACH: %{instructor}',
      option: '%{title}%{coach} (%{length})', // ours: the spec names the parts, not how they are joined
      choose_video: 'Choose a video', // ours
      already_favorite: 'already a favorite', // ours
      no_videos: 'No videos for this access level', // ours
      save: 'Save',
      cancel: 'Cancel',
    },
    level_modal: {
      title: 'Update Client VOD Access Level',
      current_level: 'Current VOD Access Level', // ours
      new_level: 'New VOD Access Level', // ours
      override_for: 'Override for',
      override_choices: {
        1: '24 Hours',
        7: '1 Week',
        14: '2 Weeks',
        21: '3 Weeks',
        28: '4 Weeks',
      },
      warning: 'Warning: Client will have new access level until %{date}',
      choose_level: 'Choose a level', // ours
      save: 'Save',
      cancel: 'Cancel',
    },
    push_modal: {
      title: 'Push Notification Directly to Client',
      fields: { title: 'Title', message: 'Message' },
      message_required: '* Message Required', // ours: the spec's message rule (§5) applied here too
      send: 'Send',
      cancel: 'Cancel',
    },
    sync_modal: {
      title: 'Sync Client Contracts',
      // ours: the spec only says the confirmation mentions MindBody API calls
      body: "This syncs the client's contracts from MindBody and uses MindBody API calls.",
      confirm: 'Confirm',
      cancel: 'Cancel',
    },
  },
  search: {
    search_for: 'Search for:',
    indexes: { customers: 'Customers' },
    placeholder: 'Search', // ours
    submit: 'Submit the search query',
    reset: 'Clear the search query',
    // ours from here on
    label: 'Search customers',
    results: 'Customer search results',
    searching: 'Searching…',
    error: 'Search failed. Keep typing to try again.',
    no_results: 'No customers match "%{query}".',
    mindbody_id: 'MindBody ID: %{id}',
    instructor: 'COACH: %{name}',
  },
  // ours (issue 11): every state-changing staff action, with before/after values
  audit: {
    title: 'Audit Log',
    empty: 'No staff actions match these filters.',
    export: 'Export',
    export_failed: 'The export failed: %{reason}',
    system: 'System',
    created: 'created',
    removed: 'removed',
    columns: { at: 'When', staff: 'Staff member', action: 'Action', target: 'Target', client: 'Client', changes: 'Changes', ip: 'Address' },
    filters: { staff: 'Staff member', action: 'Action', client: 'Client ID', from: 'From', to: 'To', search: 'Search' },
    targets: {
      message: 'Push message #%{id}',
      video: 'Video #%{id}',
      client: 'Client #%{id}',
      session: 'Session',
      staff_user: 'Staff account',
      vimeo_sync: 'Vimeo sync #%{id}',
      mindbody_sync: 'MindBody import #%{id}',
      other: '%{type} %{id}',
    },
    actions: {
      'auth.sign_in': 'Signed in',
      'auth.sign_in_failed': 'Failed sign-in',
      'auth.sign_out': 'Signed out',
      'session.end': 'Ended a session',
      'message.create': 'Added a push message',
      'message.update': 'Edited a push message',
      'video.update': 'Edited a video',
      'video.delete': 'Deleted a video',
      'vimeo_sync.start': 'Started a Vimeo sync',
      'mindbody_sync.start': 'Started a MindBody import',
      'client.access_level': 'Changed the VOD access level',
      'client.override_grant': 'Granted an access level override',
      'client.override_end': 'Ended an access level override',
      'client.push': 'Sent a push notification',
      'client.favorite_add': 'Added a favorite',
      'client.favorite_remove': 'Removed a favorite',
      'client.contracts_sync': 'Synced contracts',
      'automated_message.update': 'Edited an automated message',
    },
  },
  // ours (issue 11): the signed-in staff member's sessions
  sessions: {
    title: 'My sessions',
    intro: 'Everywhere you are signed in. A session ends after 30 minutes without use and 12 hours after sign-in.',
    this_session: 'This session',
    end: 'End',
    end_label: 'End the session on %{device}',
    end_others: 'End all other sessions',
    ended: 'Session ended',
    others_ended: '%{smart_count} other session ended |||| %{smart_count} other sessions ended',
    none_other: 'There are no other sessions to end.',
    unknown_device: 'Unknown browser',
    columns: { device: 'Browser', address: 'Address', created: 'Signed in', last_seen: 'Last seen', expires: 'Ends' },
  },
  // ours: when the Mindbody client import last ran (shown on the client lists)
  mindbody_sync: {
    never: 'MindBody not synced yet',
    synced: 'MindBody last synced %{time}',
    running: 'MindBody sync running… (last synced %{time})',
    running_first: 'MindBody sync running…',
    failed: 'MindBody last synced %{time} · the last attempt failed',
    failed_first: 'MindBody sync failed; not synced yet',
    sandbox: 'Sandbox site: set the MINDBODY_* credentials on the server for the live API.',
  },
} as const;

export type ConsoleMessages = typeof en;
