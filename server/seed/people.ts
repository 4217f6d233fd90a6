// Names, e-mail domains and MindBody statuses the demo clients are drawn from.
// Word lists stay a screen of names per line.
// prettier-ignore
export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Oliver', 'Sophia', 'Elijah', 'Isabella', 'James', 'Mia', 'William',
  'Amelia', 'Benjamin', 'Harper', 'Lucas', 'Evelyn', 'Henry', 'Abigail', 'Theodore', 'Emily', 'Jack', 'Ella',
  'Levi', 'Elizabeth', 'Alexander', 'Camila', 'Jackson', 'Luna', 'Mateo', 'Sofia', 'Daniel', 'Avery', 'Michael',
  'Mila', 'Mason', 'Aria', 'Sebastian', 'Scarlett', 'Ethan', 'Penelope', 'Logan', 'Layla', 'Owen', 'Chloe',
  'Samuel', 'Victoria', 'Jacob', 'Madison', 'Asher', 'Eleanor', 'Aiden', 'Grace', 'John', 'Nora', 'Joseph',
  'Riley', 'Wyatt', 'Zoey', 'David', 'Hannah', 'Leo', 'Hazel', 'Luke', 'Lily', 'Julian', 'Ellie', 'Hudson',
  'Violet', 'Grayson', 'Lillian', 'Matthew', 'Zoe', 'Ezra', 'Stella', 'Gabriel', 'Aurora', 'Carter', 'Natalie',
  'Isaac', 'Emilia', 'Jayden', 'Everly', 'Luca', 'Leah', 'Anthony', 'Aubrey', 'Dylan', 'Willow', 'Lincoln',
  'Addison', 'Thomas', 'Lucy', 'Maverick', 'Audrey', 'Elias', 'Bella', 'Josiah', 'Nova', 'Charles', 'Brooklyn',
  'Caleb', 'Paisley', 'Christopher', 'Savannah', 'Ezekiel', 'Claire', 'Miles', 'Skylar', 'Jaxon', 'Isla',
  'Isaiah', 'Genesis', 'Andrew', 'Naomi', 'Joshua', 'Elena', 'Nathan', 'Caroline', 'Nolan', 'Eliana', 'Adrian',
  'Anna', 'Cameron', 'Maya', 'Santiago', 'Valentina', 'Eli', 'Ruby', 'Aaron', 'Kennedy', 'Ryan', 'Ivy', 'Angel',
  'Ariana', 'Cooper', 'Aaliyah', 'Waylon', 'Cora', 'Easton', 'Madelyn', 'Kai', 'Alice', 'Christian', 'Kinsley',
  'Landon', 'Hailey', 'Colton', 'Gabriella', 'Roman', 'Allison', 'Axel', 'Gianna', 'Brooks', 'Serenity',
  'Jonathan', 'Samantha', 'Robert', 'Sarah', 'Jameson', 'Autumn', 'Ian', 'Quinn', 'Everett', 'Eva', 'Greyson',
  'Piper', 'Wesley', 'Sophie', 'Jeremiah', 'Sadie', 'Hunter', 'Delilah', 'Leonardo', 'Josephine', 'Jordan',
  'Nevaeh', 'Jose', 'Adeline', 'Bennett', 'Arya', 'Silas', 'Emery', 'Nicholas', 'Lydia', 'Parker', 'Clara',
  'Beau', 'Vivian', 'Weston', 'Madeline', 'Austin', 'Peyton', 'Connor', 'Julia', 'Carson', 'Rylee', 'Dominic',
  'Brielle', 'Xavier', 'Reagan', 'Jaxson', 'Natalia', 'Jace', 'Jade', 'Emmett', 'Athena', 'Adam', 'Maria',
  'Declan', 'Leilani', 'Rowan', 'Everleigh', 'Micah', 'Liliana', 'Kayden', 'Melanie', 'Gael', 'Mackenzie',
];

// prettier-ignore
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee',
  'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young',
  'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker',
  'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz',
  'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy', 'Cook', 'Rogers',
  'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim',
  'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza',
  'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster',
  'Jimenez', 'Powell', 'Jenkins', 'Perry', 'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson',
  'Barnes', 'Gonzales', 'Fisher', 'Vasquez', 'Simmons', 'Romero', 'Jordan', 'Patterson', 'Alexander', 'Hamilton',
  'Graham', 'Reynolds', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes', 'Bryant', 'Herrera', 'Gibson',
  'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro', 'Marshall', 'Owens', 'Harrison',
  'Fernandez', 'McDonald', 'Woods', 'Washington', 'Kennedy', 'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman',
  'Webb', 'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez',
  'Silva', 'Shaw', 'Snyder', 'Mason', 'Dixon', 'Munoz', 'Hunt', 'Hicks', 'Holmes', 'Palmer', 'Wagner', 'Black',
  'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar', 'Fox', 'Warren', 'Mills', 'Meyer', 'Rice', 'Schmidt',
  'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens', 'Soto', 'Weaver', 'Ryan', 'Gardner', 'Payne', 'Grant',
  'Dunn', 'Kelley', 'Spencer', 'Hawkins', "O'Brien", 'Lane', 'Andrews', 'Ruiz-Diaz', 'Nakamura', 'Okafor',
];

export const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'hotmail.com', 'proton.me', 'studio-fit.com', 'aol.com'];
export const STATUSES = ['Active', 'Active', 'Active', 'Active', 'Active', 'Non-Member', 'Expired', 'Suspended', 'Terminated', 'Declined', null];
