export interface DemoMessage {
  message_type: number;
  title: string;
  message: string;
  enabled: boolean;
}

export function demoMessages(): DemoMessage[] {
  return [
    { message_type: 1, title: 'High five, {first_name}!', message: 'Great work in {class_name} today. Keep that energy going!', enabled: true },
    { message_type: 1, title: 'Crushed it!', message: 'Another class in the books, {first_name}. We love to see it.', enabled: true },
    { message_type: 1, title: 'Milestone unlocked', message: 'You just finished class number {class_count}. Amazing!', enabled: false },
    { message_type: 2, title: 'We missed you', message: 'Hey {first_name}, we missed you in {class_name}. Book your next class in the app.', enabled: true },
    { message_type: 2, title: 'Everything OK?', message: 'Life happens! Catch a 20-minute class on demand today.', enabled: false },
    { message_type: 3, title: '#notetoself', message: 'Note to self: you always feel better after you move. See you this week!', enabled: true },
    { message_type: 3, title: 'Your weekly reminder', message: '{first_name}, schedule three workouts this week. Future you says thanks.', enabled: true },
    { message_type: 4, title: 'Monday Motivation', message: 'New week, new goals. Start strong with a 15-minute warm-up.', enabled: true },
    { message_type: 4, title: 'Good morning!', message: 'Kick off Monday with our most popular class of the week.', enabled: false },
    { message_type: 5, title: 'Class cancelled', message: 'Sorry {first_name}, {class_name} was cancelled. Try an on-demand class instead.', enabled: true },
    { message_type: 6, title: 'Come back soon', message: "It's been {days_absent} days, {first_name}! Your mat misses you.", enabled: true },
    { message_type: 6, title: 'A gift to welcome you back', message: 'Jump back in with a free week of premium videos.', enabled: false },
  ];
}
